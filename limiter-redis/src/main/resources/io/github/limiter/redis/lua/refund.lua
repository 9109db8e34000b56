-- Gives back permits under every limit whose key still exists, as PolicyFunction.refund; a missing
-- key is fresh already and stays missing. Returns the number of keys changed.
local n = #KEYS
local limits = {}
for i = 1, n do
  limits[i] = params(4 + (i - 1) * PARAMS)
end
local states, missing = read(limits)
local changed = 0
for i = 1, n do
  if not missing[i] then
    local p = limits[i]
    local s = refund(i, states[i], p)
    local reset = reset_after(s, p)
    if reset > 0 then write(i, s, p, reset) else redis.call('DEL', KEYS[i]) end
    changed = changed + 1
  end
end
return changed
