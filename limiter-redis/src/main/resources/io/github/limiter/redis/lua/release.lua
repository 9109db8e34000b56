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
--@ leases
if live then redis.call('HDEL', leases, node) end
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
