-- The keys' overrides: one hash, KEYS[1], of "policy key" -> "kind end limits", end in the
-- scripts' microseconds (0: until removed), limits empty but for kind 'limits'. Sets field ARGV[4]
-- to kind and limits ARGV[5] ("kind" or "limits 10/s") ending ARGV[2] microseconds from now (0:
-- never); an empty ARGV[5] removes the field. Returns 1 if the hash changed, else 0. Spliced after
-- the prelude's opening: ARGV[1] is now ('' for TIME).
if ARGV[5] == '' then return redis.call('HDEL', KEYS[1], ARGV[4]) end
local ends = 0
if permits > 0 then ends = now + permits end
local kind, limits = string.match(ARGV[5], '^(%a+) ?(.*)$')
redis.call('HSET', KEYS[1], ARGV[4], string.format('%s %d %s', kind, ends, limits))
return 1
