package main

import (
	"math"
	"testing"
	"time"
)

// Every latency falls in a bucket whose middle is within 1.6% of it,
// and buckets rise with latencies.
func TestBucket(t *testing.T) {
	last := -1
	for us := uint64(0); us < 1<<24; us += 1 + us/97 {
		b := bucket(us)
		if b < last {
			t.Fatalf("bucket(%d) = %d, below bucket %d of a smaller latency", us, b, last)
		}
		last = b
		if mid := bucketMid(b); math.Abs(mid-float64(us)) > 0.016*float64(us)+0.5 {
			t.Fatalf("bucket(%d) = %d, whose middle %.1f is more than 1.6%% away", us, b, mid)
		}
	}
	if b := bucket(math.MaxUint64); b != histBuckets-1 {
		t.Errorf("bucket(max) = %d, want the last, %d", b, histBuckets-1)
	}
}

func TestQuantile(t *testing.T) {
	var h histogram
	if got := h.quantile(0.5); got != 0 {
		t.Errorf("empty: p50 %v, want 0", got)
	}
	for us := 1; us <= 10000; us++ {
		h.add(time.Duration(us) * time.Microsecond)
	}
	for _, tt := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 5 * time.Millisecond}, {0.9, 9 * time.Millisecond}, {0.99, 9900 * time.Microsecond}, {1, 10 * time.Millisecond}} {
		got := h.quantile(tt.q)
		if math.Abs(float64(got-tt.want)) > 0.016*float64(tt.want) {
			t.Errorf("p%g = %v, want %v within 1.6%%", tt.q*100, got, tt.want)
		}
	}
	var a, b histogram
	a.add(time.Millisecond)
	b.add(3 * time.Millisecond)
	a.merge(&b)
	if a.n != 2 || a.max != 3*time.Millisecond || a.quantile(1) != 3*time.Millisecond {
		t.Errorf("merged: n %d, max %v, p100 %v", a.n, a.max, a.quantile(1))
	}
}
