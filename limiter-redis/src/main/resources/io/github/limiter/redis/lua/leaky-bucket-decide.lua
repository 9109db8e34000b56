-- Leaky bucket (GCRA) decide, the whole script after prelude.lua: decide.lua with the hooks of
-- leaky-bucket.lua written out (keep the two in step). It is the hot path, so it creates no
-- closure and no table but the MGET reply and the result: each pass reads a limit's parameters
-- from ARGV and its state from the reply again, which costs less than keeping them in tables.
-- Per limit: T, capacity b, initial level; the state is the theoretical arrival time tat, and the
-- backlog max(0, tat - now) is the bucket's level times T.
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
    local backlog = (tonumber(raw[i]) or (now + tonumber(ARGV[a + 2]) * T)) - now
    if backlog < 0 then backlog = 0 end
    -- Admissible while backlog < (b - permits + 1) * T; the first such instant is one tick later.
    local excess = backlog - (b - permits + 1) * T
    if excess >= 0 then wait = excess + 1 else wait = 0 end
  end
  if wait > retry then retry, bind = wait, i end
end

if retry > 0 then
  -- A key is created at first sight, admitted or not: a bucket that starts above empty must keep
  -- that state, or every first request would find it anew. MGET told which keys were missing.
  for i = 1, n do
    if not raw[i] then
      local a = 1 + 3 * i
      local tat = now + tonumber(ARGV[a + 2]) * tonumber(ARGV[a])
      local backlog = tat - now
      if backlog > 0 then
        local ms = ceil(backlog / 1000) + 1
        if ms < ttl_floor then ms = ttl_floor end
        redis.call('SET', KEYS[i], format('%d', tat), 'PX', format('%d', ms))
      end
    end
  end
  local a = 1 + 3 * bind
  local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local backlog = (tonumber(raw[bind]) or (now + tonumber(ARGV[a + 2]) * T)) - now
  if backlog < 0 then backlog = 0 end
  if retry == NEVER then
    local left, room = 0, b * T - backlog
    if room > 0 then left = (room + T - 1 - fmod(room + T - 1, T)) / T end -- ceil(room / T), exactly
    return { 2, bind, left, backlog, 0, 0 }
  end
  return { 0, bind, 0, backlog, retry, 0 }
end

-- Admitted under every limit: add the permits to each bucket; the binding limit is the first one
-- with the fewest permits left, the delay the longest backlog.
local least, least_reset, longest = nil, nil, 0
for i = 1, n do
  local a = 1 + 3 * i
  local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local tat = tonumber(raw[i]) or (now + tonumber(ARGV[a + 2]) * T)
  local backlog = tat - now
  if backlog < 0 then backlog = 0 end
  tat = now + backlog + permits * T
  backlog = tat - now
  if backlog < 0 then backlog = 0 end
  local left, room = 0, b * T - backlog
  if room > 0 then left = (room + T - 1 - fmod(room + T - 1, T)) / T end
  if least == nil or left < least then least, bind, least_reset = left, i, backlog end
  if backlog > longest then longest = backlog end
  -- The TTL keeps the key at least until the bucket is empty again, in whole milliseconds.
  local ms = ceil(backlog / 1000) + 1
  if ms < ttl_floor then ms = ttl_floor end
  redis.call('SET', KEYS[i], format('%d', tat), 'PX', format('%d', ms))
end
return { 1, bind, least, least_reset, 0, longest }
