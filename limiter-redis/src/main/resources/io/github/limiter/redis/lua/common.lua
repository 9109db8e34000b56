-- Shared prelude of every limiter script. The script text is this prelude, one algorithm part and
-- one driver (decide or refund), joined by the Java side; Redis sees one script per algorithm.
-- An algorithm part defines PARAMS, params(a), read(limits) -> states, missing (missing[i] is true
-- when KEYS[i] did not exist, so that drivers need no command of their own to know it),
-- retry_after, admit, refund, remaining, reset_after, delay and write.
--
-- KEYS: one per limit of the policy, all in one hash slot.
-- ARGV[1]: now in integer microseconds, or '' to read the server's TIME (microseconds since
--          2025-01-01, so that every number stays an exact integer below 2^53 in a Lua double).
-- ARGV[2]: permits. ARGV[3]: the least TTL in ms (0 under server time). ARGV[4..]: per-limit
--          parameters, PARAMS of them per limit, in microseconds and counts.
local now
if ARGV[1] == '' then
  if redis.replicate_commands then redis.replicate_commands() end
  local t = redis.call('TIME')
  now = (tonumber(t[1]) - 1735689600) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[1])
end
local permits = tonumber(ARGV[2])
local ttl_floor = tonumber(ARGV[3])
local NEVER = math.huge

-- Exact integer division and remainder on doubles holding integers: fmod is exact, so is a - r.
local function floormod(a, b)
  local r = math.fmod(a, b)
  if r < 0 then r = r + b end
  return r
end
local function floordiv(a, b)
  return (a - floormod(a, b)) / b
end

-- The TTL that keeps a key at least until it is fresh again, in whole milliseconds.
local function ttl(reset)
  local ms = math.ceil(reset / 1000) + 1
  if ms < ttl_floor then ms = ttl_floor end
  return string.format('%d', ms)
end

local function int(x)
  return string.format('%d', x)
end
