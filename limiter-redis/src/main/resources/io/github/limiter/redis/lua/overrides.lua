-- The keys' overrides that apply now, as override.lua keeps them in the hash KEYS[1]; ended ones
-- are deleted. Returns now, then a flat list of field, "kind remaining limits" (remaining in
-- microseconds, -1 for until removed). Spliced after the prelude's opening: ARGV[1] is now ('' for
-- TIME).
local all = redis.call('HGETALL', KEYS[1])
local out = { string.format('%d', now) }
for k = 1, #all, 2 do
  local kind, ends, limits = string.match(all[k + 1], '^(%a+) (%d+) ?(.*)$')
  ends = tonumber(ends)
  if not kind or (ends ~= 0 and ends <= now) then
    redis.call('HDEL', KEYS[1], all[k])
  else
    local remaining = -1
    if ends ~= 0 then remaining = ends - now end
    out[#out + 1] = all[k]
    out[#out + 1] = string.format('%s %d %s', kind, remaining, limits)
  end
end
return out
