-- Decides a group of g requests of the same permits under every limit, each all-or-nothing, as
-- io.github.limiter.internal.algorithm.PolicyFunction would decide them one after the other at one
-- instant: the first k are admitted and the rest refused, since each admission only takes from
-- what the next one finds. ARGV[2] is "permits" (g = 1) or "permits:g".
-- k comes from each limit's own arithmetic (section fit: how many of the group it has room for),
-- the state is written once, as of all k admissions, so the work does not grow with g (but for the
-- sliding log, which stores an entry per admitted permit).
-- g = 1 returns {outcome, limit (1-based), remaining, resetAfter, retryAfter, delay}, times in
-- microseconds; outcome 1 = allowed, 0 = limited, 2 = exceeds capacity. Two cases cost Redis less
-- as text of two numbers than as a table: an admission under limit 1 without delay returns
-- "remaining resetAfter", and a refusal by limit 1 "-retryAfter resetAfter". g > 1 returns
-- {k, outcome, limit, remaining, resetAfter, retryAfter} (the decision of each refused request,
-- all alike; zeros when k = g) followed, when k > 0, by {left, reset, reset at k, delay, delay at
-- k} of each limit in turn after the first admission: the caller derives the decision of the m-th
-- admitted request (CompiledPolicy.decisions), as every limit's left falls by the permits with
-- each admission (never below 0) and its reset and delay move by the same step each time.
-- Or { now }, having written nothing, when now is outside a quota's periods (prelude.lua's
-- section period).
-- A template: Scripts splices the algorithm's sections in at the "--@ name" lines, and keeps the
-- quotas' blocks only for a policy with calendar quotas, the single block only for one without.
-- The script Redis runs creates no closure and no table but the fetched state and the result.
-- Each pass loads a limit's parameters and state again, which costs less than keeping them in
-- tables; one limit deciding one request takes a single pass.
-- The last ARGV is q, the number of calendar quotas, whose keys follow the n keys of the
-- algorithm's limits (limit n + j is quota j) and whose parameters follow theirs.
local n = #KEYS
--[ quotas
local q = tonumber(ARGV[#ARGV])
n = n - q
--]
local format, ceil, fmod = string.format, math.ceil, math.fmod
local g = 1
if not permits then
  local p, size = string.match(ARGV[2], '^(%d+):(%d+)$')
  permits, g = tonumber(p), tonumber(size)
end
--@ head
--@ fetch

--[ single
-- One limit and one request, the usual call: decided in one pass, with the limit's parameters and
-- state loaded once, exactly as the general passes below would decide it. Kept only in the shape
-- of policies without calendar quotas, where #KEYS counts the limits.
if n == 1 and g == 1 then
  local i, a = 1, 4
  --@ load
  --@ wait
  if wait == 0 then
    --@ admit
    --@ remaining
    --@ reset
    --@ delay
    --@ ttl
    --@ write
    if delay == 0 then return format('%d %d', left, reset) end
    return { 1, 1, left, reset, 0, delay }
  end
  --@ reset
  if fresh and reset > 0 then
    --@ ttl
    --@ write
  end
  if wait == NEVER then
    --@ remaining
    if left < 0 then left = 0 end
    return { 2, 1, left, reset, 0, 0 }
  end
  return format('-%d %d', wait, reset)
end
--]

-- How many of the group fit (k), and the longest wait of the first request with the first limit
-- that needs it: the quotas', then the algorithm's.
local k, retry, bind = g, 0, 1
--[ quotas
for j = 1, q do
  --@ quota
  if qwait > retry then retry, bind = qwait, n + j end
  if g > 1 and permits > 0 then
    --@ quotafit
    if qfit < k then k = qfit end
  end
end
--]

local least, least_reset, longest = nil, nil, 0
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ wait
  if wait > retry then retry, bind = wait, i end
  if g > 1 and permits > 0 then
    local fit = 0
    --@ fit
    if fit < k then k = fit end
  end
end
-- One request, or none of any size: the first one's wait decides them all.
if g == 1 or permits == 0 then
  if retry > 0 then k = 0 else k = g end
end

if k == 0 then
  -- A key is created at first sight, admitted or not: a bucket that starts below full (initial
  -- tokens or level) must keep that state, or every first request would find it anew. The fetch
  -- already told which keys were missing, so a rejection costs no further command.
  for i = 1, n do
    local a = 4 + (i - 1) * PARAMS
    --@ load
    if fresh then
      --@ reset
      if reset > 0 then
        --@ ttl
        --@ write
      end
    end
  end
  local outcome, rleft, rreset = 0, 0, 0
  if bind <= n then
    local i = bind
    local a = 4 + (i - 1) * PARAMS
    --@ load
    --@ reset
    --@ remaining
    if left < 0 then left = 0 end
    rleft, rreset = left, reset
--[ quotas
  else
    local j = bind - n
    --@ quota
    --@ quotaleft
    rleft, rreset = qleft, qreset
--]
  end
  if retry == NEVER then outcome, retry = 2, 0 else rleft = 0 end
  if g == 1 then
    -- The usual refusal, by the first limit, as the text "-retryAfter resetAfter" (retryAfter > 0).
    if outcome == 0 and bind == 1 then return format('-%d %d', retry, rreset) end
    return { outcome, bind, rleft, rreset, retry, 0 }
  end
  return { 0, outcome, bind, rleft, rreset, retry }
end

-- Admitted: the first k under every limit. out holds the refusal of the rest (after the k
-- admissions: the first limit with the longest wait, the quotas' first) and what each admission
-- leaves; g = 1 needs only the binding limit, the first one with the fewest permits left, and the
-- longest of the limits' delays.
local out
if g > 1 then out = { k, 0, 0, 0, 0, 0 } end
local o, rest = 6, k < g
local lretry, lbind, lleft, lreset = 0, 1, 0, 0
local p = permits
for i = 1, n do
  local a = 4 + (i - 1) * PARAMS
  --@ load
  --@ admit
  do
    --@ remaining
    --@ reset
    --@ delay
    if g == 1 then
      if least == nil or left < least then least, bind, least_reset = left, i, reset end
      if delay > longest then longest = delay end
    else
      out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5] = left, reset, reset, delay, delay
    end
  end
  if k > 1 then
    permits = (k - 1) * p
    --@ admit
    permits = p
    --@ reset
    --@ delay
    out[o + 3], out[o + 5] = reset, delay
  end
  o = o + 5
  if rest then
    do
      --@ wait
      if wait > lretry then
        --@ remaining
        --@ reset
        if left < 0 then left = 0 end
        lretry, lbind, lleft, lreset = wait, i, left, reset
      end
    end
  end
  --@ reset
  --@ ttl
  --@ write
end

--[ quotas
local qretry, qbind, qleft_, qreset_ = 0, 1, 0, 0
for j = 1, q do
  --@ quota
  qcount = qcount + p
  do
    --@ quotaleft
    if g == 1 then
      if least == nil or qleft < least then least, bind, least_reset = qleft, n + j, qreset end
    else
      out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5] = qleft, qreset, qreset, 0, 0
    end
  end
  qcount = qcount + (k - 1) * p
  if rest then
    --@ quotawait
    if qwait > qretry then
      --@ quotaleft
      qretry, qbind, qleft_, qreset_ = qwait, n + j, qleft, qreset
    end
  end
  --@ quotawrite
  if k > 1 then out[o + 3] = qreset end
  o = o + 5
end
--]
if g == 1 then
  -- The usual admission, bound by the first limit and not delayed, as the text "remaining reset":
  -- two numbers to format cost Redis less than a table to convert.
  if bind == 1 and longest == 0 then return format('%d %d', least, least_reset) end
  return { 1, bind, least, least_reset, 0, longest }
end
if rest then
--[ quotas
  if qretry > 0 and qretry >= lretry then lretry, lbind, lleft, lreset = qretry, qbind, qleft_, qreset_ end
--]
  if lretry == NEVER then
    out[2], out[3], out[4], out[5], out[6] = 2, lbind, lleft, lreset, 0
  else
    out[2], out[3], out[4], out[5], out[6] = 0, lbind, 0, lreset, lretry
  end
end
return out
