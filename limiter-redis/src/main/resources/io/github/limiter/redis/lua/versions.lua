-- The live versions of the policies' limits, as publish.lua keeps them: the hash KEYS[1] as a flat
-- list of policy name, "version start limits".
return redis.call('HGETALL', KEYS[1])
