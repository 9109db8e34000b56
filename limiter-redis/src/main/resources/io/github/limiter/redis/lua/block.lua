-- An upstream's "blocked until" (RateLimitStore.block): blocks KEYS[1] until now + ARGV[2]
-- microseconds unless it ends later already; ARGV[2] 0 only reads. Returns the microseconds the
-- block still runs, 0 if none. The key holds the end, and expires with it.
-- A template, like decide.lua: Scripts splices the shared sections in at the "--@ name" lines.
local format, ceil = string.format, math.ceil
local ends = tonumber(redis.call('GET', KEYS[1]) or '')
local reset = 0
if ends and ends > now then reset = ends - now end
if permits > reset then
  reset = permits
  --@ ttl
  redis.call('SET', KEYS[1], format('%d', now + reset), 'PX', px)
end
return reset
