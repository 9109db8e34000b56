-- Sliding window log, as io.github.limiter.internal.algorithm.SlidingWindowLog: a list of the admission
-- times of the last N permits, oldest first; entries with t <= now - W have dropped out, and are
-- trimmed on the next admission. Params: W, N.
local PARAMS = 2

local function params(a)
  return { W = tonumber(ARGV[a]), N = tonumber(ARGV[a + 1]) }
end

local function entry(i, index)
  return tonumber(redis.call('LINDEX', KEYS[i], index))
end

local function read(limits)
  local states, missing = {}, {}
  for i = 1, #KEYS do
    local W = limits[i].W
    local size = redis.call('LLEN', KEYS[i])
    -- A list key exists only while it holds entries.
    missing[i] = size == 0
    local s = { size = size, expired = 0 }
    if size > 0 then
      s.last = entry(i, -1)
      if now - s.last >= W then
        s.expired = size
      elseif now - entry(i, 0) >= W then
        -- Entries are ordered: find the first live one. lo is expired, hi is live.
        local lo, hi = 0, size - 1
        while hi - lo > 1 do
          local mid = floordiv(lo + hi, 2)
          if now - entry(i, mid) >= W then lo = mid else hi = mid end
        end
        s.expired = hi
      end
    end
    states[i] = s
  end
  return states, missing
end

local function retry_after(i, s, p)
  if permits > p.N then return NEVER end
  local live = s.size - s.expired
  if live + permits <= p.N then return 0 end
  -- The oldest (live + permits - N) live entries must drop out; the last of them decides.
  return entry(i, s.expired + live + permits - p.N - 1) + p.W - now
end

local function admit(i, s, p)
  if s.expired > 0 then
    redis.call('LTRIM', KEYS[i], s.expired, -1)
  end
  local size = s.size - s.expired
  -- Keep the list ordered even if this caller's clock is slightly behind the newest entry.
  local stamp = now
  if size > 0 and s.last > now then stamp = s.last end
  local text = int(stamp)
  local left = permits
  while left > 0 do
    local batch = {}
    for k = 1, math.min(left, 1000) do batch[k] = text end
    redis.call('RPUSH', KEYS[i], unpack(batch))
    left = left - #batch
  end
  return { size = size + permits, expired = 0, last = stamp }
end

local function refund(i, s, p)
  local drop = math.min(permits, s.size)
  if drop == 0 then return s end
  redis.call('RPOP', KEYS[i], drop)
  local size = s.size - drop
  local r = { size = size, expired = math.min(s.expired, size) }
  if size > 0 then r.last = entry(i, -1) end
  return r
end

local function remaining(s, p)
  return p.N - (s.size - s.expired)
end

local function reset_after(s, p)
  if s.size == s.expired then return 0 end
  return s.last + p.W - now
end

local function delay(s, p)
  return 0
end

local function write(i, s, p, reset)
  redis.call('PEXPIRE', KEYS[i], ttl(reset))
end
