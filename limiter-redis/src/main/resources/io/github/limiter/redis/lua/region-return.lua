-- A global policy (docs/multi-region.md): at a node's close, after its slices went back to the pool,
-- takes what the region's pool holds of the global budget, for the node to give back there
-- (release.lua, 'keep'), so that a region whose last node stops strands nothing. Leaves the pool
-- to the region while another node holds a live lease on the key or a refill is in flight: they
-- spend it. KEYS as region-lease.lua's. ARGV: now, permits (unused), ttl floor.
-- Returns the permits taken (emptied from the pool), 0 if none.
local format, ceil, fmod = string.format, math.ceil, math.fmod
local pool, leases, lock = KEYS[1], KEYS[2], KEYS[3]
local p = redis.call('HMGET', pool, 'count', 'expiry', 'allowance')
local count, expiry = tonumber(p[1]) or 0, tonumber(p[2]) or now
if expiry <= now or count <= 0 or p[3] == '1' then return 0 end
if redis.call('EXISTS', lock) == 1 then return 0 end
local records = redis.call('HGETALL', leases)
for k = 1, #records, 2 do
  local h, e = string.match(records[k + 1], '^(%d+) (%-?%d+)$')
  if h and tonumber(h) > 0 and tonumber(e) > now then return 0 end
end
redis.call('HSET', pool, 'count', '0')
return count
