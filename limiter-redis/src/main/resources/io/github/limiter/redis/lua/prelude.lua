-- Opening of every limiter script: the arguments and the clock. Free of closures and tables, so
-- that a script pays for nothing it does not use. The sections after it ("--@ name") are shared
-- by the templates, decide.lua and adjust.lua, like the algorithm's own sections.
--
-- KEYS: one per limit of the policy, all in one hash slot.
-- ARGV[1]: now in integer microseconds, or '' to read the server's TIME (microseconds since
--          2025-01-01, so that every number stays an exact integer below 2^53 in a Lua double).
-- ARGV[2]: permits. ARGV[3]: the least TTL in ms (0 under server time). ARGV[4..]: per-limit
--          parameters, PARAMS of them per limit, in microseconds and counts.
local now
if ARGV[1] == '' then
  -- Writing after TIME needs effects replication, the default since Redis 5 and the only mode
  -- since 7 (which is the first to define REDIS_VERSION_NUM): only older servers need the call.
  if not redis.REDIS_VERSION_NUM and redis.replicate_commands then redis.replicate_commands() end
  local t = redis.call('TIME')
  now = (tonumber(t[1]) - 1735689600) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[1])
end
local permits = tonumber(ARGV[2])
local ttl_floor = tonumber(ARGV[3])
local NEVER = math.huge
--@ ttl
-- The TTL that keeps a key at least until it is fresh again (reset microseconds from now), in
-- whole milliseconds.
local px = ceil(reset / 1000) + 1
if px < ttl_floor then px = ttl_floor end
px = format('%d', px)
