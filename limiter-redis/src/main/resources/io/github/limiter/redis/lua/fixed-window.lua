-- Fixed window, as io.github.limiter.internal.algorithm.FixedWindow: the state is the window index
-- w and its count, stored as "w count"; the count as of now is max(0, (w - now/W) * N + count),
-- which is the count in the same window and 0 in a later one. Params: W, N. Sections of
-- straight-line code, spliced by Scripts into decide.lua and refund.lua: see there for the names
-- each one is given (i, a, raw) and must define.

--@ head
local PARAMS = 2

--@ fetch
local raw = redis.call('MGET', unpack(KEYS))

--@ load
local W, N = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
local e = fmod(now, W) -- elapsed in the window: floor modulo, exact on integers
if e < 0 then e = e + W end
local w = (now - e) / W
local fresh = not raw[i]
local count = 0
if raw[i] then
  local sw, sc = string.match(raw[i], '^(%-?%d+) (%-?%d+)$')
  if sw then
    count = (tonumber(sw) - w) * N + tonumber(sc)
    if count < 0 then count = 0 end
  end
end

--@ wait
local wait = NEVER
if permits <= N then
  if count + permits <= N then wait = 0 else wait = W - e end
end

--@ admit
count = count + permits

--@ refund
count = count - permits
if count < 0 then count = 0 end

--@ remaining
local left = N - count

--@ reset
local reset = 0
if count > 0 then reset = W - e end

--@ delay
local delay = 0

--@ write
redis.call('SET', KEYS[i], format('%d %d', w, count), 'PX', px)
