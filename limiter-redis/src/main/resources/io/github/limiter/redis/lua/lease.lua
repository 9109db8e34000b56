-- Lease mode: grants a node a slice of every limit, charged at once, all-or-nothing, as decide.lua
-- charges a request: refill, then grant min(wanted, available, cap, fair share) and subtract it.
-- The node spends the slice locally until its lease ends, so no node ever spends what Redis did
-- not charge first. KEYS[1..n]: the limits' keys; KEYS[n + 1]: the leases, a hash of node id ->
-- "held expiry": the most the node may still hold, and the server microsecond from which it
-- spends none of it. What the live leases hold counts against a bucket's capacity (section lent).
-- ARGV[2] is the permits the node lacks for the request that asks (at least 1). After the limits'
-- parameters: node id, wanted, unspent (what the node says it still holds), lease ttl (µs), cap
-- (the most one slice may be), capacity (the smallest limit's burst or window count).
-- Returns {granted, spendable for (µs), retryAfter (µs, for what is still lacking), left, bind,
-- resetAfter of bind, active (the live leases, this one included)}.
-- A template, like decide.lua: Scripts splices the algorithm's sections in at the "--@ name" lines.
local n = #KEYS - 1
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local leases = KEYS[n + 1]
local x = 4 + n * PARAMS
local node, wanted, unspent = ARGV[x], tonumber(ARGV[x + 1]), tonumber(ARGV[x + 2])
local span, cap, capacity = tonumber(ARGV[x + 3]), tonumber(ARGV[x + 4]), tonumber(ARGV[x + 5])
local need = permits

-- The leases: the state is first brought to now under what was out until now (lent, section
-- lent); this node's holding is what it says it still holds (never more than its live record
-- says; nothing if its lease ended).
--@ leases
local own = 0
if live then
  own = unspent
  if own > mine then own = mine end
end

--@ fetch

-- What is left under every limit, what was lent counted as taken; bind is the first with least.
local avail, bind = NEVER, 1
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ lent
  --@ remaining
  if left < avail then avail, bind = left, i end
end

-- The slice: what the node wants, within the cap, its fair share of the capacity and its share
-- of what is left (so that slices shrink near exhaustion); but the request that asks, if it fits.
local grant = wanted
if grant > cap then grant = cap end
local share = (capacity - fmod(capacity, active)) / active
if share < 1 then share = 1 end
if grant > share then grant = share end
local rest = ceil(avail / active)
if grant > rest then grant = rest end
if grant < need then grant = need end
if grant > avail then grant = avail end
if grant < 0 then grant = 0 end

-- Charged to every limit, and written even if nothing was granted: the state as of now under what
-- was lent must stand before a lease's end can make room. spend: how long the slice may be spent
-- (a window's slice ends with it); keep: how long the leases' record must outlive the last lease.
local spend, retry, least_reset, keep = span, 0, 0, 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ lent
  if grant > 0 then
    permits = grant
    --@ admit
  end
  --@ reset
  if i == bind then least_reset = reset end
  if reset > 0 then
    --@ ttl
    --@ write
  end
  --@ horizon
  if horizon < spend then spend = horizon end
  if settle > keep then keep = settle end
  if grant < need then
    permits = need - grant
    --@ wait
    if wait > retry then retry = wait end
  end
end
if retry == NEVER then
  -- Not while the others hold what is lacking: at the latest, their leases end.
  if soonest < NEVER then retry = soonest - now else retry = span end
end

local expiry = now + spend
redis.call('HSET', leases, node, format('%d %d', own + grant, expiry))
if expiry > last then last = expiry end
keep = ceil((last - now + keep) / 1000) + 1
if keep < ttl_floor then keep = ttl_floor end
redis.call('PEXPIRE', leases, format('%d', keep))
return { grant, spend, retry, avail - grant, bind, least_reset, active }
