-- Lease mode: gives back what a node did not spend of its slices (ARGV[2]), as adjust.lua gives
-- back permits, and ends its lease. Only a live lease gives back, and never more than it holds:
-- once a lease has ended, the node spends none of it, and what it held stays charged (a node that
-- dies loses its slice as if it had spent it). KEYS as in lease.lua; after the limits'
-- parameters, the node id, and 'keep' for a region that gives back part of what it holds (its
-- pool at a node's close, docs/multi-region.md): its lease stays, holding that much less, since
-- its nodes may still hold slices. Returns the permits given back.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS - 1
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local leases = KEYS[n + 1]
local node = ARGV[4 + n * PARAMS]
local keep = ARGV[5 + n * PARAMS] == 'keep'

-- lent: what every lease holds as recorded, this one and ended ones included, under which the state
-- is brought to now before this lease's end makes room (section lent), as in lease.lua.
--@ leases
if not live then permits = 0 end
if permits > mine then permits = mine end
if live then
  if keep and mine > permits then
    local ends = string.match(redis.call('HGET', leases, node), ' (%-?%d+)$')
    redis.call('HSET', leases, node, format('%d %s', mine - permits, ends))
  else
    redis.call('HDEL', leases, node)
  end
end
if lent == 0 then return 0 end
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
