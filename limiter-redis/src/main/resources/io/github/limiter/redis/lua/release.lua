-- Lease mode: gives back what a node did not spend of its slices (ARGV[2]), as adjust.lua gives
-- back permits, and ends its lease. Only a live lease gives back, and never more than it holds:
-- once a lease has ended, the node spends none of it, and what it held stays charged (a node that
-- dies loses its slice as if it had spent it). KEYS as in lease.lua; after the limits'
-- parameters, the node id. Returns the permits given back.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS - 1
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local leases = KEYS[n + 1]
local node = ARGV[4 + n * PARAMS]

-- lent: what every lease holds as recorded, this one and ended ones included, under which the state
-- is brought to now before this lease's end makes room (section lent), as in lease.lua.
local lent, mine, live = 0, 0, false
local records = redis.call('HGETALL', leases)
for k = 1, #records, 2 do
  local held, expiry = string.match(records[k + 1], '^(%d+) (%-?%d+)$')
  held, expiry = tonumber(held), tonumber(expiry)
  if not held then
    redis.call('HDEL', leases, records[k])
  else
    lent = lent + held
    if expiry <= now then
      redis.call('HDEL', leases, records[k])
    elseif records[k] == node then
      redis.call('HDEL', leases, node)
      mine, live = held, true
    end
  end
end
if lent == 0 then return 0 end
if not live then permits = 0 end
if permits > mine then permits = mine end
--@ fetch
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ lent
  if not fresh and permits > 0 then
    --@ refund
  end
  --@ reset
  if reset > 0 then
    --@ ttl
    --@ write
  elseif not fresh then
    redis.call('DEL', KEYS[i])
  end
end
return permits
