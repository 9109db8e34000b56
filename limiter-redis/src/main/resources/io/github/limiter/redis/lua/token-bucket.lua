-- Token bucket, as io.github.limiter.internal.algorithm.TokenBucket: the state is the instant z at which
-- the bucket held zero tokens; tokens(now) = min(b, (now - z) / T). Params: T, b, initial tokens.
-- The refund script uses these hooks; the decide script, token-bucket-decide.lua, writes them out.
local PARAMS = 3

local function params(a)
  local T = tonumber(ARGV[a])
  local b = tonumber(ARGV[a + 1])
  return { T = T, b = b, full = b * T, initial = tonumber(ARGV[a + 2]) * T }
end

local function read(limits)
  local raw = redis.call('MGET', unpack(KEYS))
  local states, missing = {}, {}
  for i = 1, #KEYS do
    missing[i] = not raw[i]
    states[i] = tonumber(raw[i]) or (now - limits[i].initial)
  end
  return states, missing
end

local function saved(z, p)
  local s = now - z
  if s > p.full then return p.full end
  return s
end

local function retry_after(i, z, p)
  if permits > p.b then return NEVER end
  local missing = permits * p.T - saved(z, p)
  if missing > 0 then return missing end
  return 0
end

local function admit(i, z, p)
  return now - saved(z, p) + permits * p.T
end

local function refund(i, z, p)
  local s = saved(z, p) + permits * p.T
  if s > p.full then s = p.full end
  return now - s
end

local function remaining(z, p)
  local s = saved(z, p)
  if s > 0 then return floordiv(s, p.T) end
  return 0
end

local function reset_after(z, p)
  return p.full - saved(z, p)
end

local function delay(z, p)
  return 0
end

local function write(i, z, p, reset)
  redis.call('SET', KEYS[i], int(z), 'PX', ttl(reset))
end
