-- Decides one request under every limit, all-or-nothing, as io.github.limiter.internal.algorithm.PolicyFunction.
-- Returns {outcome, limit (1-based), remaining, resetAfter, retryAfter, delay}, times in
-- microseconds; outcome 1 = allowed, 0 = limited, 2 = exceeds capacity.
local n = #KEYS
local limits = {}
for i = 1, n do
  limits[i] = params(4 + (i - 1) * PARAMS)
end
local states, missing = read(limits)

local retry, waits = 0, {}
for i = 1, n do
  waits[i] = retry_after(i, states[i], limits[i])
  if waits[i] > retry then retry = waits[i] end
end

if retry > 0 then
  -- A key is created at first sight, admitted or not: a bucket that starts below full (initial
  -- tokens or level) must keep that state, or every first request would find it anew. read()
  -- already knows which keys were missing, so a rejection costs no further command.
  for i = 1, n do
    if missing[i] then
      local r = reset_after(states[i], limits[i])
      if r > 0 then write(i, states[i], limits[i], r) end
    end
  end
  local bind = 1
  for i = 1, n do
    if waits[i] == retry then bind = i break end
  end
  local s, p = states[bind], limits[bind]
  if retry == NEVER then
    return { 2, bind, remaining(s, p), reset_after(s, p), 0, 0 }
  end
  return { 0, bind, 0, reset_after(s, p), retry, 0 }
end

local bind, least, longest, resets = 1, nil, 0, {}
for i = 1, n do
  local p = limits[i]
  local s = admit(i, states[i], p)
  states[i] = s
  local left = remaining(s, p)
  if least == nil or left < least then
    least = left
    bind = i
  end
  local d = delay(s, p)
  if d > longest then longest = d end
  resets[i] = reset_after(s, p)
  write(i, s, p, resets[i])
end
return { 1, bind, least, resets[bind], 0, longest }
