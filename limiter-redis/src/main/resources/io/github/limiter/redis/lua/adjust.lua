-- Charges ARGV[2] permits under every limit, as debt where they are not admissible, or gives back
-- -ARGV[2], as PolicyFunction.adjust. A charge is the admission's, then capped by the algorithm's
-- debt section to what the state may owe (one more capacity); permits may be any size, since a
-- double that loses precision above 2^53 is capped back to an exact integer. A charge creates a
-- missing key; a refund leaves it missing, as it is fresh already. Returns the number of keys
-- changed.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
--@ fetch
local charging = permits > 0
if not charging then permits = -permits end
local changed = 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  if charging or not fresh then
    if charging then
      --@ admit
      --@ debt
    else
      --@ refund
    end
    --@ reset
    if reset > 0 then
      --@ ttl
      --@ write
    elseif not fresh then
      redis.call('DEL', KEYS[i])
    end
    changed = changed + 1
  end
end
return changed
