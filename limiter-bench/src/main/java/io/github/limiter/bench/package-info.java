/**
 * JMH benchmarks of Limiter against its peers (Bucket4j, Resilience4j, Guava and a raw CAS GCRA),
 * plus the memory and Redis drivers that JMH does not fit. Every peer is measured in the same run.
 */
package io.github.limiter.bench;
