-- The live versions of the policies' limits: one hash, KEYS[1], of policy name -> "version start
-- limits", start in the scripts' microseconds. Publishes version ARGV[2] of policy ARGV[4] with
-- limits ARGV[5] (as configuration writes them), unless the hash holds that version or a newer one
-- already: two nodes that change a policy at once cannot both win. Returns what the hash holds for
-- the policy afterwards. Spliced after the prelude's opening: ARGV[1] is now ('' for TIME).
local version = permits -- ARGV[2], as the opening reads it
local held = redis.call('HGET', KEYS[1], ARGV[4])
if held then
  local current = tonumber(string.match(held, '^(%d+) '))
  if current and current >= version then return held end
end
local value = string.format('%d %d %s', version, now, ARGV[5])
redis.call('HSET', KEYS[1], ARGV[4], value)
return value
