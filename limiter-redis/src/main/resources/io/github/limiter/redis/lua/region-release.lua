-- A global policy (docs/multi-region.md): gives back what a node did not spend of its slice
-- (ARGV[2]) to its region's pool, and ends its lease; as release.lua, only a live lease gives back,
-- never more than it holds, and never into a pool that has expired. KEYS as region-lease.lua's;
-- after the limits' parameters, the node id (the last ARGV). Returns the permits given back.
local format, ceil, fmod = string.format, math.ceil, math.fmod
local pool, leases = KEYS[1], KEYS[2]
local node = ARGV[#ARGV]
--@ leases
if not live then return 0 end
redis.call('HDEL', leases, node)
if permits > mine then permits = mine end
local p = redis.call('HMGET', pool, 'count', 'expiry', 'taken')
local count, expiry, taken = tonumber(p[1]) or 0, tonumber(p[2]) or now, tonumber(p[3]) or 0
if expiry <= now or permits <= 0 then return 0 end
redis.call('HSET', pool, 'count', format('%d', count + permits), 'taken', format('%d', taken - permits))
return permits
