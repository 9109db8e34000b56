-- Token bucket decide, the whole script after prelude.lua: decide.lua with the hooks of
-- token-bucket.lua written out (keep the two in step). It is the hot path, so it creates no
-- closure and no table but the MGET reply and the result: each pass reads a limit's parameters
-- from ARGV and its state from the reply again, which costs less than keeping them in tables.
-- Per limit: T, b, initial tokens; the state is the instant z at which the bucket held zero tokens.
-- Returns {outcome, limit (1-based), remaining, resetAfter, retryAfter, delay}, times in
-- microseconds; outcome 1 = allowed, 0 = limited, 2 = exceeds capacity.
local n = #KEYS
local raw = redis.call('MGET', unpack(KEYS))
local format, ceil, fmod = string.format, math.ceil, math.fmod

-- The longest wait, and the first limit that needs it.
local retry, bind = 0, 1
for i = 1, n do
  local a = 1 + 3 * i
  local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local wait = NEVER
  if permits <= b then
    local full = b * T
    local s = now - (tonumber(raw[i]) or (now - tonumber(ARGV[a + 2]) * T))
    if s > full then s = full end
    wait = permits * T - s
    if wait < 0 then wait = 0 end
  end
  if wait > retry then retry, bind = wait, i end
end

if retry > 0 then
  -- A key is created at first sight, admitted or not: a bucket that starts below full must keep
  -- that state, or every first request would find it anew. MGET told which keys were missing.
  for i = 1, n do
    if not raw[i] then
      local a = 1 + 3 * i
      local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
      local full = b * T
      local z = now - tonumber(ARGV[a + 2]) * T
      local s = now - z
      if s > full then s = full end
      local reset = full - s
      if reset > 0 then
        local ms = ceil(reset / 1000) + 1
        if ms < ttl_floor then ms = ttl_floor end
        redis.call('SET', KEYS[i], format('%d', z), 'PX', format('%d', ms))
      end
    end
  end
  local a = 1 + 3 * bind
  local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local full = b * T
  local s = now - (tonumber(raw[bind]) or (now - tonumber(ARGV[a + 2]) * T))
  if s > full then s = full end
  if retry == NEVER then
    local left = 0
    if s > 0 then left = (s - fmod(s, T)) / T end -- floor(s / T), exactly
    return { 2, bind, left, full - s, 0, 0 }
  end
  return { 0, bind, 0, full - s, retry, 0 }
end

-- Admitted under every limit: take the permits from each bucket; the binding limit is the first
-- one with the fewest permits left.
local least, least_reset
for i = 1, n do
  local a = 1 + 3 * i
  local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local full = b * T
  local z = tonumber(raw[i]) or (now - tonumber(ARGV[a + 2]) * T)
  local s = now - z
  if s > full then s = full end
  z = now - s + permits * T
  s = now - z
  if s > full then s = full end
  local left = 0
  if s > 0 then left = (s - fmod(s, T)) / T end
  local reset = full - s
  if least == nil or left < least then least, bind, least_reset = left, i, reset end
  -- The TTL keeps the key at least until the bucket is full again, in whole milliseconds.
  local ms = ceil(reset / 1000) + 1
  if ms < ttl_floor then ms = ttl_floor end
  redis.call('SET', KEYS[i], format('%d', z), 'PX', format('%d', ms))
end
return { 1, bind, least, least_reset, 0, 0 }
