-- Gives back permits under every limit whose key still exists, as PolicyFunction.refund; a missing
-- key is fresh already and stays missing. Returns the number of keys changed.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
--@ fetch
local changed = 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  if not fresh then
    --@ refund
    --@ reset
    if reset > 0 then
      --@ ttl
      --@ write
    else
      redis.call('DEL', KEYS[i])
    end
    changed = changed + 1
  end
end
return changed
