-- Fixed window, as io.github.limiter.internal.algorithm.FixedWindow: the state is the window index
-- w and its count, stored as "w count"; the count as of now is max(0, (w - now/W) * N + count),
-- which is the count in the same window and 0 in a later one (but for debt: see the debt section).
-- Stored as "w count W N", the limit it was written under: a state of another limit carries over
-- to this one keeping its count, in this limit's window of the carry, as FixedWindow.carry.
-- Params: W, N, the version's start. Sections of straight-line code, spliced by Scripts into decide.lua and adjust.lua:
-- see there for the names each one is given (i, a, raw) and must define.

--@ head
local PARAMS = 3

--@ fetch
-- Decoded once, into the reply's free slots: raw[n + 2i - 1] and raw[n + 2i] hold key i's window
-- and count under this limit (nil when it is missing or unreadable), so that each pass reads two
-- numbers. A bare "w count" is a state of this limit.
local raw = n > 0 and redis.call('MGET', unpack(KEYS, 1, n)) or {}
for i = 1, n do
  if raw[i] then
    local sw, sc, oW, oN = string.match(raw[i], '^(%-?%d+) (%-?%d+) (%d+) (%d+)$')
    if not sw then sw, sc = string.match(raw[i], '^(%-?%d+) (%-?%d+)$') end
    sw, sc, oW, oN = tonumber(sw), tonumber(sc), tonumber(oW), tonumber(oN)
    local a, k = 4 + (i - 1) * PARAMS, 2
    local W, N = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
    if sw and oW and (oW ~= W or oN ~= N) then
      --+ carry
      local oe = fmod(c, oW)
      if oe < 0 then oe = oe + oW end
      local count = (sw - (c - oe) / oW) * oN + sc
      if count < 0 or count > 2 * oN then count = 0 end
      if count > 2 * N then count = 2 * N end
      local e = fmod(c, W)
      if e < 0 then e = e + W end
      sw, sc = (c - e) / W, count
    end
    if sw then raw[n + 2 * i - 1], raw[n + 2 * i] = sw, sc end
  end
end

--@ load
--+ window
local fresh = not raw[i]
local count = 0
if raw[n + 2 * i - 1] then
  count = (raw[n + 2 * i - 1] - w) * N + raw[n + 2 * i]
  if count < 0 then count = 0 end
end

--@ wait
local wait = NEVER
if permits <= N then
  if count + permits <= N then
    wait = 0
  elseif count - N + permits <= N then
    wait = W - e
  else
    wait = W - e + W -- debt carried into the next window keeps the request out of that one too
  end
end

--@ fit
-- How many requests of permits (> 0) the window admits one after the other: while count <= N.
do
  local room = N - count
  if room >= permits then fit = (room - fmod(room, permits)) / permits end
end

--@ admit
count = count + permits

--@ debt
-- After a charge: a count of at most 2N, as FixedWindow.charge; a later window reads the stored
-- count less N per window, so the excess over N counts in the next one.
if count > 2 * N then count = 2 * N end

--@ refund
count = count - permits
if count < 0 then count = 0 end

--@ remaining
local left = N - count
if left < 0 then left = 0 end

--@ reset
local reset = 0
if count > N then reset = W - e + W elseif count > 0 then reset = W - e end

--@ delay
local delay = 0

--@ write
redis.call('SET', KEYS[i], format('%d %d %d %d', w, count, W, N), 'PX', px)

--@ lent
-- Lease mode: a window does not refill, so what the nodes hold is simply counted in it.

--@ horizon
-- Lease mode: a slice of a window may be spent only in that window (horizon); the window counts
-- it, so a lease that ended needs keeping no longer (settle).
local horizon, settle = W - e, 0
