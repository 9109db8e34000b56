-- A global policy (docs/multi-region.md): grants a node a slice of its region's pool, as lease.lua
-- grants one of a policy's state. The pool holds what the global Redis granted the region, until
-- its expiry (on this server's clock); a node's slice ends at that expiry at the latest, so no node
-- spends what the global Redis does not count as held by the region.
-- KEYS[1]: the pool, a hash: count (held, not leased to a node), expiry, renew (from when a refill
-- is due), low (fewer than this left make a refill due), retry (until when the global Redis had
-- nothing more), taken (leased to nodes so far), dry (a node lacked since the last refill).
-- KEYS[2]: the nodes' leases, node id -> "held expiry", as lease.lua's. KEYS[3]: the refill lock
-- (region-begin.lua's); begun and took in the pool: when the refill in flight began, how long the
-- last one took.
-- ARGV as lease.lua's; the last six: node id, wanted, unspent, lease ttl (µs), cap, capacity.
-- Returns lease.lua's reply {granted, spendable for (µs), retryAfter (µs), left, bind (1),
-- resetAfter (0)}, then 1 if a refill of the pool is due, else 0.
local format, ceil, fmod = string.format, math.ceil, math.fmod
local pool, leases = KEYS[1], KEYS[2]
local x = #ARGV - 5
local node, wanted, unspent = ARGV[x], tonumber(ARGV[x + 1]), tonumber(ARGV[x + 2])
local span, cap = tonumber(ARGV[x + 3]), tonumber(ARGV[x + 4])
local need = permits
--@ leases
local own = 0
if live then
  own = unspent
  if own > mine then own = mine end
end

local p = redis.call('HMGET', pool, 'count', 'expiry', 'renew', 'low', 'retry', 'taken', 'begun',
  'took')
local count, expiry = tonumber(p[1]) or 0, tonumber(p[2]) or now
local renew, low = tonumber(p[3]) or now, tonumber(p[4]) or 0
local until_, taken = tonumber(p[5]) or now, tonumber(p[6]) or 0
local begun, took = tonumber(p[7]) or now, tonumber(p[8]) or 0
if expiry <= now then count = 0 end

-- The slice: what the node wants, within the cap and its share of the pool; but the request that
-- asks, if the pool has it.
local grant = wanted
if grant > cap then grant = cap end
local rest = ceil(count / active)
if grant > rest then grant = rest end
if grant < need then grant = need end
if grant > count then grant = count end
if grant < 0 then grant = 0 end
local spend = expiry - now
if spend > span then spend = span end
if spend < 0 then spend = 0 end

local left = count - grant
local due = 0
if grant < need or left < low or now >= renew then due = 1 end
if grant > 0 then
  redis.call('HSET', pool, 'count', format('%d', left), 'taken', format('%d', taken + grant))
end
if grant < need then redis.call('HSET', pool, 'dry', '1') end

local retry = 0
if grant < need then
  -- Until the global Redis has more, or until the refill in flight (or the one this grant makes
  -- due) may land, as long as the last one took: never sooner than 1 ms.
  retry = until_ - now
  if redis.call('EXISTS', KEYS[3]) == 0 then begun = now end
  if begun + took - now > retry then retry = begun + took - now end
  if retry < 1000 then retry = 1000 end
end
if own + grant > 0 and spend > 0 then
  redis.call('HSET', leases, node, format('%d %d', own + grant, now + spend))
  if now + spend > last then last = now + spend end
elseif live then
  redis.call('HDEL', leases, node)
end
local keep = ceil((last - now) / 1000) + 1
if keep < ttl_floor then keep = ttl_floor end
if keep > 0 then redis.call('PEXPIRE', leases, format('%d', keep)) end
return { grant, spend, retry, left, 1, 0, due }
