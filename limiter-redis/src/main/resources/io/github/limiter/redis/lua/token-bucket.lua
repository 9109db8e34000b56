-- Token bucket, as io.github.limiter.internal.algorithm.TokenBucket: the state is the instant z at
-- which the bucket held zero tokens; tokens(now) = min(b, (now - z) / T). Stored as "z T b", the
-- limits it was written under: a state of other limits carries over to these keeping its tokens
-- (or debt), capped at the new capacity, as TokenBucket.carry. Params: T, b, initial tokens, the
-- version's start. Sections of straight-line code, spliced by Scripts into decide.lua and adjust.lua: see
-- there for the names each one is given (i, a, raw) and must define.

--@ head
local PARAMS = 4

--@ fetch
--+ stored

--@ rebase
-- keeps the tokens (or debt) that v held under the limits oT, ob, capped at the new capacity
local saved = c - v
if saved > ob * oT then saved = ob * oT end
saved = saved * T / oT
if saved >= 0 then saved = math.floor(saved) else saved = math.ceil(saved) end
if saved > b * T then saved = b * T elseif saved < -b * T then saved = -b * T end
v = c - saved

--@ load
local T, b = ARGV[a] + 0, ARGV[a + 1] + 0
local full = b * T
local fresh = not raw[i]
local z = raw[n + i] or (now - ARGV[a + 2] * T)

--@ wait
local wait = NEVER
if permits <= b then
  local saved = now - z
  if saved > full then saved = full end
  wait = permits * T - saved
  if wait < 0 then wait = 0 end
end

--@ fit
-- How many requests of permits (> 0) the bucket admits one after the other at now: each takes
-- permits * T of the saved time, which must cover it.
do
  local saved = now - z
  if saved > full then saved = full end
  local need = permits * T
  if saved >= need then fit = (saved - fmod(saved, need)) / need end
end

--@ admit
do
  local saved = now - z
  if saved > full then saved = full end
  z = now - saved + permits * T
end

--@ debt
-- After a charge: at most minus the capacity in tokens, as TokenBucket.charge.
if now - z < -full then z = now + full end

--@ refund
do
  local saved = now - z
  if saved > full then saved = full end
  saved = saved + permits * T
  if saved > full then saved = full end
  z = now - saved
end

--@ remaining
local left = 0
do
  local saved = now - z
  if saved > full then saved = full end
  if saved > 0 then left = (saved - fmod(saved, T)) / T end -- floor(saved / T), exactly
end

--@ reset
local reset = full - (now - z)
if reset < 0 then reset = 0 end

--@ delay
local delay = 0

--@ write
-- T and b as the caller sent them, the digits %d would print: fewer numbers to format.
redis.call('SET', KEYS[i], format('%d %s %s', z, ARGV[a], ARGV[a + 1]), 'PX', px)

--@ lent
-- Lease mode: what the nodes hold (lent) counts against the capacity. The bucket holds at most
-- b - lent as of now, and z moves so; once written, a later call cannot refill past that with
-- time that passed while the slices were out.
do
  local room = (b - lent) * T
  if room < 0 then room = 0 end
  if now - z > room then z = now - room end
end

--@ horizon
-- Lease mode: a slice of a bucket may be spent as long as its lease lives (horizon); a lease that
-- ended matters for one more full refill (settle), so its record is kept that long.
local horizon, settle = NEVER, full
