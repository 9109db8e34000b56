-- Decides one request under every limit, all-or-nothing, as io.github.limiter.internal.algorithm.PolicyFunction.
-- Returns {outcome, limit (1-based), remaining, resetAfter, retryAfter, delay}, times in
-- microseconds; outcome 1 = allowed, 0 = limited, 2 = exceeds capacity. Or { now }, having written
-- nothing, when now is outside a quota's periods (prelude.lua's section period).
-- A template: Scripts splices the algorithm's sections in at the "--@ name" lines, so the script
-- Redis runs creates no closure and no table but the fetched state and the result. Each pass
-- loads a limit's parameters and state again, which costs less than keeping them in tables.
-- The last ARGV is q, the number of calendar quotas, whose keys follow the n keys of the
-- algorithm's limits (limit n + j is quota j) and whose parameters follow theirs.
local q = tonumber(ARGV[#ARGV])
local n = #KEYS - q
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head

-- The longest wait, and the first limit that needs it: the quotas', then the algorithm's.
local retry, bind = 0, 1
for j = 1, q do
  --@ quota
  if qwait > retry then retry, bind = qwait, n + j end
end

local least, least_reset, longest = nil, nil, 0
if n > 0 then
  --@ fetch
  for i = 1, n do
    local a = 4 + (i - 1) * PARAMS
    --@ load
    --@ wait
    if wait > retry then retry, bind = wait, i end
  end

  if retry > 0 then
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
    if bind <= n then
      local i = bind
      local a = 4 + (i - 1) * PARAMS
      --@ load
      --@ reset
      if retry == NEVER then
        --@ remaining
        return { 2, bind, left, reset, 0, 0 }
      end
      return { 0, bind, 0, reset, retry, 0 }
    end
  else
    -- Admitted under every limit: the binding limit is the first one with the fewest permits
    -- left, the delay the longest of the limits' delays.
    for i = 1, n do
      local a = 4 + (i - 1) * PARAMS
      --@ load
      --@ admit
      --@ remaining
      --@ reset
      --@ delay
      if least == nil or left < least then least, bind, least_reset = left, i, reset end
      if delay > longest then longest = delay end
      --@ ttl
      --@ write
    end
  end
end

if retry > 0 then
  -- Refused by a quota.
  local j = bind - n
  --@ quota
  --@ quotaleft
  if retry == NEVER then return { 2, bind, qleft, qreset, 0, 0 } end
  return { 0, bind, 0, qreset, retry, 0 }
end

for j = 1, q do
  --@ quota
  qcount = qcount + permits
  --@ quotawrite
  if least == nil or qleft < least then least, bind, least_reset = qleft, n + j, qreset end
end
return { 1, bind, least, least_reset, 0, longest }
