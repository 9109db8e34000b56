-- A global policy (docs/multi-region.md): the last step of a refill. Credits the region's pool
-- with what the global Redis granted (ARGV[2]), spendable until t0 + spend - margin, t0 being the
-- time region-begin.lua read before the global grant was sent: the pool never outlives the
-- region's lease in the global Redis. Only while this refill holds the lock: a refill whose lock
-- ended credits nothing, and its slice is stranded (lost, never doubled). Then releases the lock.
-- KEYS as region-begin.lua's. ARGV: now, granted, ttl floor, token, t0, spend (µs), margin (µs),
-- lead (µs: how long before its end the pool is due for renewal), taken at begin, retry (µs), low mark, local (1: a local allowance, not a grant).
-- Returns the pool's count after the credit, or -1 if the lock was lost.
local format, ceil, fmod = string.format, math.ceil, math.fmod
local pool, lock = KEYS[1], KEYS[3]
local token, t0, spend = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local margin, lead, taken0 = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local retry, low, is_local = tonumber(ARGV[10]), tonumber(ARGV[11]), ARGV[12] == '1'
if redis.call('GET', lock) ~= token then return -1 end
redis.call('DEL', lock)
local p = redis.call('HMGET', pool, 'count', 'expiry', 'localat')
local count, expiry, localat = tonumber(p[1]) or 0, tonumber(p[2]) or now, tonumber(p[3])
if expiry <= now then count = 0 end
local ends = t0 + spend - margin
if is_local then
  -- The global Redis could not be reached. A local allowance (permits per spend µs) is credited
  -- only once the pool is spent, and once per span: what the region holds of the global budget
  -- keeps its own expiry, and the allowance is what the bound adds for a cut-off region.
  if count == 0 and permits > 0 and (not localat or now >= localat + spend) then
    count, expiry = permits, now + spend
    redis.call('HSET', pool, 'localat', format('%d', now), 'allowance', '1')
  else
    permits = 0
  end
else
  -- The global record now holds what the region held at t0 plus the grant, until t0 + spend.
  count = count + permits
  expiry = ends
end
local renew = expiry - lead
if renew < now + lead / 2 then renew = now + lead / 2 end
redis.call('HSET', pool, 'count', format('%d', count), 'expiry', format('%d', expiry),
  'renew', format('%d', renew), 'low', format('%d', low), 'retry', format('%d', t0 + retry))
if not is_local then
  redis.call('HSET', pool, 'took', format('%d', now - t0))
  redis.call('HSET', pool, 'takenat', format('%d', taken0), 'at', format('%d', t0),
    'grant', format('%d', permits), 'dry', '0', 'allowance', '0')
end
local keep = ceil((expiry - now) / 1000) + 600000
if keep < ttl_floor then keep = ttl_floor end
redis.call('PEXPIRE', pool, format('%d', keep))
return count
