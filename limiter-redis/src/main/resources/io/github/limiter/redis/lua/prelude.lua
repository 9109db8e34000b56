-- Opening of every limiter script: the arguments and the clock. Free of closures and tables, so
-- that a script pays for nothing it does not use. The sections after it ("--@ name") are shared:
-- the templates and the algorithms' own sections splice them in by name, as text.
--
-- KEYS: one per limit of the policy, all in one hash slot.
-- ARGV[1]: now in integer microseconds, or '' to read the server's TIME (microseconds since
--          2025-01-01, so that every number stays an exact integer below 2^53 in a Lua double).
-- ARGV[2]: permits. ARGV[3]: the least TTL in ms (0 under server time). ARGV[4..]: per-limit
--          parameters, PARAMS of them per limit, in microseconds and counts.
local now
if ARGV[1] == '' then
  -- Writing after TIME needs effects replication, the default since Redis 5 and the only mode
  -- since 7 (which is the first to define REDIS_VERSION_NUM): only older servers need the call.
  if not redis.REDIS_VERSION_NUM and redis.replicate_commands then redis.replicate_commands() end
  local t = redis.call('TIME')
  -- Arithmetic on a numeric string parses it once; tonumber parses it twice.
  now = (t[1] - 1735689600) * 1000000 + t[2]
else
  now = tonumber(ARGV[1])
end
local permits = tonumber(ARGV[2])
local ttl_floor = ARGV[3] + 0
local NEVER = math.huge
--@ ttl
-- The TTL that keeps a key at least until it is fresh again (reset microseconds from now), in
-- whole milliseconds.
local px = ceil(reset / 1000) + 1
if px < ttl_floor then px = ttl_floor end
px = format('%d', px)
--@ carry
-- A stored state written under other limits of the policy (another version) carries over to
-- these as of the instant c: this version's start (the limit's parameter at offset k), or now if
-- it gives none; never later than now.
local c = tonumber(ARGV[a + k]) or now
if c > now then c = now end
--@ stored
-- The fetch of the bucket algorithms, whose state is one instant v stored as "v T b", the limits
-- it was written under (a bare "v" is a state of these limits). Decoded once, into the reply's
-- free slots: raw[n + i] holds key i's v under these limits, nil when it is missing or
-- unreadable. A state of these limits, the usual case, costs one match and one number; one of
-- other limits is carried over by the algorithm's own rebase section, which turns v, written under
-- T = oT and b = ob, into v under T and b as of the instant c. One key is read with GET, which
-- costs Redis less than MGET.
local raw
if n == 1 then
  raw = { redis.call('GET', KEYS[1]), false }
else
  raw = n > 0 and redis.call('MGET', unpack(KEYS, 1, n)) or {}
end
for i = 1, n do
  if raw[i] then
    local a, k = 4 + (i - 1) * PARAMS, 3
    local v, limits = string.match(raw[i], '^(%-?%d+) (%d+ %d+)$')
    if limits == ARGV[a] .. ' ' .. ARGV[a + 1] then
      v = v + 0
    else
      local oT, ob
      if limits then
        oT, ob = string.match(limits, '^(%d+) (%d+)$')
      else
        v = string.match(raw[i], '^(%-?%d+)$')
      end
      v, oT, ob = tonumber(v), tonumber(oT), tonumber(ob)
      local T, b = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
      if v and oT and (oT ~= T or ob ~= b) then
        --+ carry
        --+ rebase
      end
    end
    raw[n + i] = v
  end
end
--@ window
-- The window algorithms' parameters W and N, and the aligned window of now: e, the time elapsed
-- in it (floor modulo, exact on integers), and w, its index.
local W, N = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
local e = fmod(now, W)
if e < 0 then e = e + W end
local w = (now - e) / W
--@ record
-- A node's record, "count end" (end in microseconds), of a lease's slice or of a concurrency hold:
-- held and expiry as numbers, both nil if it is unreadable.
local held, expiry = string.match(record, '^(%d+) (%-?%d+)$')
held, expiry = tonumber(held), tonumber(expiry)
--@ leases
-- Lease mode: the leases' records (KEYS[n + 1], a hash of node id -> "held expiry"). lent is what
-- they all hold as recorded, ended ones and this node's included; ended and unreadable records
-- are dropped. mine is what this node's live record holds (live: whether it has one); active
-- counts the live leases, this node's included; soonest and last are the other live leases'
-- earliest and latest ends.
local lent, mine, live, active, soonest, last = 0, 0, false, 1, NEVER, 0
local records = redis.call('HGETALL', leases)
for k = 1, #records, 2 do
  local record = records[k + 1]
  --+ record
  if not held then
    redis.call('HDEL', leases, records[k])
  else
    lent = lent + held
    if expiry <= now then
      redis.call('HDEL', leases, records[k])
    elseif records[k] == node then
      mine, live = held, true
    else
      active = active + 1
      if expiry < soonest then soonest = expiry end
      if expiry > last then last = expiry end
    end
  end
end
--@ period
-- The period of calendar quota j, as io.github.limiter.internal.algorithm.CalendarWindow's. Lua has
-- no time-zone rules, so the caller computes the boundaries around its own clock and passes, from
-- ARGV[b]: N, then the start of the period before the caller's, the start and the end of the
-- caller's, and the end of the one after. The script's now picks the one of these three periods
-- that holds it, so a caller whose clock is ahead or behind counts in the server's period: pe is
-- its end. A now outside all three (a caller's clock off by more than a neighbouring period) ends
-- the script, which must not have written anything yet, with { now }: the caller asks again with
-- the periods around that instant.
local b = 4 + n * PARAMS + (j - 1) * 5
local QN, pe = tonumber(ARGV[b]), tonumber(ARGV[b + 3])
if now < tonumber(ARGV[b + 2]) then
  if now < tonumber(ARGV[b + 1]) then return { now } end
  pe = tonumber(ARGV[b + 2])
elseif now >= pe then
  pe = tonumber(ARGV[b + 4])
  if now >= pe then return { now } end
end
--@ quota
-- Calendar quota j (KEYS[n + j]) in its period, whatever the algorithm. The state is "end count",
-- counted only when its end is pe: a state of another period counts 0, so debt never crosses a
-- period's end, and a count made in a period the server has not reached is never taken for one.
--+ period
local qcount = 0
local qstate = redis.call('GET', KEYS[n + j])
if qstate then
  local se, sc = string.match(qstate, '^(%-?%d+) (%d+)$')
  if se and tonumber(se) == pe then qcount = tonumber(sc) end
end
--+ quotawait
--@ quotawait
-- How long until quota j, counting qcount, admits permits more: qwait (NEVER if it never does).
local qwait = NEVER
if permits <= QN then
  if qcount + permits <= QN then qwait = 0 else qwait = pe - now end
end
--@ quotafit
-- How many requests of permits (> 0) each quota j, counting qcount, admits one after the other:
-- qfit, as CalendarWindow admits while count + permits <= N.
local qfit = QN - qcount
if qfit < permits then qfit = 0 else qfit = (qfit - fmod(qfit, permits)) / permits end
--@ quotaleft
-- What quota j has left after its quota section, as CalendarWindow's remaining and resetAfter:
-- qleft permits (never below 0), and qreset, the time until its count is gone (the period's end),
-- 0 if it counts nothing.
local qleft = QN - qcount
if qleft < 0 then qleft = 0 end
local qreset = 0
if qcount > 0 then qreset = pe - now end
--@ quotawrite
-- Stores quota j's count, which lives until its period ends: at that instant on the server's
-- clock (PEXPIREAT), or, on a caller's clock, for the time left (at least the floor).
--+ quotaleft
if qcount > 0 then
  redis.call('SET', KEYS[n + j], format('%d %d', pe, qcount))
  if ARGV[1] == '' then
    redis.call('PEXPIREAT', KEYS[n + j], format('%d', pe / 1000 + 1735689600000))
  else
    local px = ceil(qreset / 1000) + 1
    if px < ttl_floor then px = ttl_floor end
    redis.call('PEXPIRE', KEYS[n + j], format('%d', px))
  end
else
  redis.call('DEL', KEYS[n + j])
end
