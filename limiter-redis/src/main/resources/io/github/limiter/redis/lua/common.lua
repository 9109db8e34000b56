-- Helpers of the scripts made of an algorithm part and a driver (decide or refund), joined by the
-- Java side after prelude.lua; Redis sees one script per algorithm. An algorithm part defines
-- PARAMS, params(a), read(limits) -> states, missing (missing[i] is true when KEYS[i] did not
-- exist, so that drivers need no command of their own to know it), retry_after, admit, refund,
-- remaining, reset_after, delay and write.

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
