-- Decides requests under every limit, each all-or-nothing, as io.github.limiter.internal.algorithm.PolicyFunction.
-- Returns {outcome, limit (1-based), remaining, resetAfter, retryAfter, delay} per request, times in
-- microseconds; outcome 1 = allowed, 0 = limited, 2 = exceeds capacity.
-- A group: several requests on the same keys, decided one after the other in ARGV's order at one
-- instant, each reading what the one before wrote, exactly as separate calls in that order would.
-- ARGV[2] is the first request's permits; each further request appends two arguments after the
-- limits' parameters: its now ('' for the group's) and its permits. One request appends nothing.
-- A template: Scripts splices the algorithm's sections in at the "--@ name" lines, so the script
-- Redis runs creates no closure and no table but the fetched state and the result. Each pass
-- loads a limit's parameters and state again, which costs less than keeping them in tables.
local n = #KEYS
local format, ceil, fmod = string.format, math.ceil, math.fmod
--@ head
local out, o = {}, 0
local first = 4 + n * PARAMS
-- group cache: in a group, the limits' MGET and SET are answered here and the SETs made once at
-- the end, the last value and TTL of each key: what the server holds afterwards is what a SET per
-- request would leave, at two commands per group instead of two per request. Other commands go
-- to the server. One request runs with the server's redis, untouched.
local server = redis
local redis, cached, pending = redis, nil, nil
if #ARGV >= first then
  local slot = {}
  for k = 1, n do slot[KEYS[k]] = k end
  pending = {}
  local function call(command, ...)
    local key, value, _, ttl = ...
    if command == 'MGET' and key == KEYS[1] then
      -- every algorithm fetches its keys, in order, by one MGET
      if not cached then cached = server.call('MGET', unpack(KEYS, 1, n)) end
      local values = {}
      for k = 1, n do values[k] = cached[k] end
      return values
    elseif command == 'SET' and cached and slot[key] then
      cached[slot[key]], pending[slot[key]] = value, ttl or false
      return 'OK'
    end
    return server.call(command, ...)
  end
  redis = setmetatable({ call = call }, { __index = server })
end
-- end of group cache
for m = first - 2, #ARGV, 2 do
  if m >= first then
    if ARGV[m] ~= '' then now = tonumber(ARGV[m]) end
    permits = tonumber(ARGV[m + 1])
  end
  --@ fetch

  -- The longest wait, and the first limit that needs it.
  local retry, bind = 0, 1
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
    local i = bind
    local a = 4 + (i - 1) * PARAMS
    --@ load
    --@ reset
    if retry == NEVER then
      --@ remaining
      out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6] = 2, bind, left, reset, 0, 0
    else
      out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6] = 0, bind, 0, reset, retry, 0
    end
  else
    -- Admitted under every limit: the binding limit is the first one with the fewest permits left,
    -- the delay the longest of the limits' delays.
    local least, least_reset, longest = nil, nil, 0
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
    out[o + 1], out[o + 2], out[o + 3], out[o + 4], out[o + 5], out[o + 6] = 1, bind, least, least_reset, 0, longest
  end
  o = o + 6
end
if pending then
  for k, ttl in pairs(pending) do
    if ttl then server.call('SET', KEYS[k], cached[k], 'PX', ttl) else server.call('SET', KEYS[k], cached[k]) end
  end
end
return out
