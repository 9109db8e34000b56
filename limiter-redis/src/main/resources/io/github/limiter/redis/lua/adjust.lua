-- Charges ARGV[2] permits under every limit, as debt where they are not admissible, or gives back
-- -ARGV[2], as PolicyFunction.adjust. A charge is the admission's, then capped by the algorithm's
-- debt section to what the state may owe (one more capacity); permits may be any size, since a
-- double that loses precision above 2^53 is capped back to an exact integer. A charge creates a
-- missing key; a refund leaves it missing, as it is fresh already. Returns the number of keys
-- changed, or { now } as decide.lua.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
-- The last ARGV is q, the number of calendar quotas, as in decide.lua.
local n = #KEYS
--[ quotas
local q = tonumber(ARGV[#ARGV])
n = n - q
--]
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local charging = permits > 0
if not charging then permits = -permits end
local changed = 0
-- A quota's period may end the script, before it writes anything.
--[ quotas
for j = 1, q do
  --@ period
end
--]
if n > 0 then
  --@ fetch
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
end
--[ quotas
for j = 1, q do
  --@ quota
  if charging or qcount > 0 then
    -- Debt is a count above N, up to 2N, until the period ends: as CalendarWindow.charge.
    if charging then
      qcount = qcount + math.min(permits, 2 * QN)
      if qcount > 2 * QN then qcount = 2 * QN end
    else
      qcount = qcount - permits
      if qcount < 0 then qcount = 0 end
    end
    --@ quotawrite
    changed = changed + 1
  end
end
--]
return changed
