package main

import (
	"math/bits"
	"time"
)

// histogram counts latencies in buckets 1/64 of a power of two wide, so
// a percentile is within 1.6% of the true one, in the same memory
// however long the run.
type histogram struct {
	counts [histBuckets]uint64
	n      uint64
	max    time.Duration
}

// histBuckets covers microseconds below 2^41 (about 25 days): 128 exact
// buckets, then 64 for each further power of two.
const histBuckets = 128 + 35*64

// bucket returns the bucket of a latency of us microseconds.
func bucket(us uint64) int {
	if us < 128 {
		return int(us)
	}
	e := bits.Len64(us) - 7 // us>>e has 7 bits: 64..127
	b := 128 + (e-1)*64 + int(us>>e) - 64
	return min(b, histBuckets-1)
}

// bucketMid returns the middle of bucket b, in microseconds.
func bucketMid(b int) float64 {
	if b < 128 {
		return float64(b) + 0.5
	}
	e := (b-128)/64 + 1
	lo := uint64((b-128)%64+64) << e
	return float64(lo) + float64(uint64(1)<<e)/2
}

func (h *histogram) add(d time.Duration) {
	h.counts[bucket(uint64(max(d, 0)/time.Microsecond))]++
	h.n++
	h.max = max(h.max, d)
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile returns the latency below which a fraction q of the requests
// finished; 0 when there were none.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q * float64(h.n))
	rank = max(1, min(rank, h.n))
	if rank == h.n {
		return h.max // the slowest is known exactly
	}
	var seen uint64
	for b, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(time.Duration(bucketMid(b)*float64(time.Microsecond)), h.max)
		}
	}
	return h.max
}
