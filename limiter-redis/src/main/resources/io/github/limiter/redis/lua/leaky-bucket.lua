-- Leaky bucket (GCRA), as io.github.limiter.internal.algorithm.LeakyBucket: the state is the theoretical
-- arrival time tat; level(now) = max(0, tat - now) / T. Params: T, capacity, initial level.
-- The refund script uses these hooks; the decide script, leaky-bucket-decide.lua, writes them out.
local PARAMS = 3

local function params(a)
  local T = tonumber(ARGV[a])
  return { T = T, b = tonumber(ARGV[a + 1]), initial = tonumber(ARGV[a + 2]) * T }
end

local function read(limits)
  local raw = redis.call('MGET', unpack(KEYS))
  local states, missing = {}, {}
  for i = 1, #KEYS do
    missing[i] = not raw[i]
    states[i] = tonumber(raw[i]) or (now + limits[i].initial)
  end
  return states, missing
end

local function backlog(tat)
  local b = tat - now
  if b > 0 then return b end
  return 0
end

local function retry_after(i, tat, p)
  if permits > p.b then return NEVER end
  -- Admissible while backlog < (b - permits + 1) * T; the first such instant is one tick later.
  local excess = backlog(tat) - (p.b - permits + 1) * p.T
  if excess >= 0 then return excess + 1 end
  return 0
end

local function admit(i, tat, p)
  return now + backlog(tat) + permits * p.T
end

local function refund(i, tat, p)
  local b = backlog(tat) - permits * p.T
  if b < 0 then b = 0 end
  return now + b
end

local function remaining(tat, p)
  local room = p.b * p.T - backlog(tat)
  if room > 0 then return floordiv(room + p.T - 1, p.T) end
  return 0
end

local function reset_after(tat, p)
  return backlog(tat)
end

local function delay(tat, p)
  return backlog(tat)
end

local function write(i, tat, p, reset)
  redis.call('SET', KEYS[i], int(tat), 'PX', ttl(reset))
end
