-- A global policy (docs/multi-region.md): the first step of a refill of a region's pool from the
-- global budget. Takes the refill lock (KEYS[3], SET NX PX), so that one refill at most is in
-- flight per region and key, if a refill is due (ARGV[6] = '1': a node lacks permits; else the
-- pool is under its low mark or its renew time has come). KEYS as region-lease.lua's, then the
-- lock. ARGV: now, permits (unused), ttl floor, token, lock TTL (ms), force.
-- Returns {0} if no refill is due or another is in flight; else {1, now, held (the pool's count and
-- every live node lease: what the region may still spend), taken, taken at the last refill, time
-- of the last refill (0 if none), the last grant, dry (1 if a node lacked since), stranded (what
-- the pool held of the global budget when it expired: no node will spend it; counted once, as the
-- pool is emptied here)}.
local format, ceil, fmod = string.format, math.ceil, math.fmod
local pool, leases, lock = KEYS[1], KEYS[2], KEYS[3]
local token, lock_ttl, force = ARGV[4], ARGV[5], ARGV[6] == '1'
local p = redis.call('HMGET', pool, 'count', 'expiry', 'renew', 'low', 'taken', 'takenat', 'at', 'grant', 'dry',
  'allowance')
local count, expiry = tonumber(p[1]) or 0, tonumber(p[2]) or now
if expiry <= now then count = 0 end
local renew, low = tonumber(p[3]) or now, tonumber(p[4]) or 0
if not force and count >= low and now < renew then return { 0 } end
if not redis.call('SET', lock, token, 'NX', 'PX', lock_ttl) then return { 0 } end
redis.call('HSET', pool, 'begun', format('%d', now))
local stranded = 0
if expiry <= now and (tonumber(p[1]) or 0) > 0 then
  if p[10] ~= '1' then stranded = tonumber(p[1]) end
  redis.call('HSET', pool, 'count', '0')
end
-- What the region may still spend: the pool, and what every live node lease holds as recorded
-- (the most each node may still hold).
local held = count
local records = redis.call('HGETALL', leases)
for k = 1, #records, 2 do
  local h, e = string.match(records[k + 1], '^(%d+) (%-?%d+)$')
  if h and tonumber(e) > now then held = held + tonumber(h) end
end
return { 1, now, held, tonumber(p[5]) or 0, tonumber(p[6]) or 0, tonumber(p[7]) or 0,
  tonumber(p[8]) or 0, tonumber(p[9]) or 0, stranded }
