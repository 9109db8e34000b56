-- Leaky bucket (GCRA), as io.github.limiter.internal.algorithm.LeakyBucket: the state is the
-- theoretical arrival time tat; the backlog max(0, tat - now) is the bucket's level times T.
-- Stored as "tat T b", the limits it was written under: a state of other limits carries over to
-- these keeping its level, which leaks at the new rate (up to twice the capacity), as
-- LeakyBucket.carry. Params: T, capacity b, initial level, the version's start. Sections of straight-line code, spliced by Scripts into
-- decide.lua and adjust.lua: see there for the names each one is given (i, a, raw) and must define.

--@ head
local PARAMS = 4

--@ fetch
--+ stored

--@ rebase
-- keeps the backlog that v held under the limits oT, ob, now leaking at the new rate
local backlog = v - c
if backlog < 0 then backlog = 0 end
backlog = math.floor(backlog * T / oT)
if backlog > 2 * b * T then backlog = 2 * b * T end
v = c + backlog

--@ load
local T, b = ARGV[a] + 0, ARGV[a + 1] + 0
local fresh = not raw[i]
local tat = raw[n + i] or (now + ARGV[a + 2] * T)

--@ wait
local wait = NEVER
if permits <= b then
  local backlog = tat - now
  if backlog < 0 then backlog = 0 end
  -- Admissible while backlog < (b - permits + 1) * T; the first such instant is one tick later.
  local excess = backlog - (b - permits + 1) * T
  if excess >= 0 then wait = excess + 1 else wait = 0 end
end

--@ fit
-- How many requests of permits (> 0) the bucket admits one after the other: the m-th finds the
-- backlog plus (m - 1) * permits * T, and is admitted while that is below (b - permits + 1) * T,
-- that is while m * permits * T <= (b + 1) * T - backlog - 1.
do
  local backlog = tat - now
  if backlog < 0 then backlog = 0 end
  local x, need = (b + 1) * T - backlog - 1, permits * T
  if x >= need then fit = (x - fmod(x, need)) / need end
end

--@ admit
do
  local backlog = tat - now
  if backlog < 0 then backlog = 0 end
  tat = now + backlog + permits * T
end

--@ debt
-- After a charge: a level of at most twice the capacity, as LeakyBucket.charge.
if tat - now > 2 * b * T then tat = now + 2 * b * T end

--@ refund
do
  local backlog = tat - now - permits * T
  if backlog < 0 then backlog = 0 end
  tat = now + backlog
end

--@ remaining
local left = 0
do
  local backlog = tat - now
  if backlog < 0 then backlog = 0 end
  local room = b * T - backlog
  if room > 0 then left = (room + T - 1 - fmod(room + T - 1, T)) / T end -- ceil(room / T), exactly
end

--@ reset
local reset = tat - now
if reset < 0 then reset = 0 end

--@ delay
local delay = reset

--@ write
-- T and b as the caller sent them, the digits %d would print: fewer numbers to format.
redis.call('SET', KEYS[i], format('%d %s %s', tat, ARGV[a], ARGV[a + 1]), 'PX', px)
