-- Fixed window, as io.github.limiter.internal.algorithm.FixedWindow: the state is the window index w and
-- its count c, stored as "w c"; the count as of now is max(0, (w - now/W) * N + c), which is c in
-- the same window and 0 in a later one. Params: W, N.
local PARAMS = 2

local function params(a)
  local W = tonumber(ARGV[a])
  return { W = W, N = tonumber(ARGV[a + 1]), w = floordiv(now, W) }
end

local function read(limits)
  local raw = redis.call('MGET', unpack(KEYS))
  local states, missing = {}, {}
  for i = 1, #KEYS do
    local p = limits[i]
    missing[i] = not raw[i]
    local count = 0
    if raw[i] then
      local w, c = string.match(raw[i], '^(%-?%d+) (%-?%d+)$')
      if w then
        count = (tonumber(w) - p.w) * p.N + tonumber(c)
        if count < 0 then count = 0 end
      end
    end
    states[i] = count
  end
  return states, missing
end

local function until_next(p)
  return p.W - floormod(now, p.W)
end

local function retry_after(i, count, p)
  if permits > p.N then return NEVER end
  if count + permits <= p.N then return 0 end
  return until_next(p)
end

local function admit(i, count, p)
  return count + permits
end

local function refund(i, count, p)
  local c = count - permits
  if c < 0 then return 0 end
  return c
end

local function remaining(count, p)
  return p.N - count
end

local function reset_after(count, p)
  if count > 0 then return until_next(p) end
  return 0
end

local function delay(count, p)
  return 0
end

local function write(i, count, p, reset)
  redis.call('SET', KEYS[i], string.format('%d %d', p.w, count), 'PX', ttl(reset))
end
