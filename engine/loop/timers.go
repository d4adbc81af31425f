package loop

import (
	"container/heap"
	"time"
)

// deadlineQueue holds the deadlines of an event loop's connections in
// the order they fall due. Every deadline is the same --timeout after the
// start of a dial or a request, so a deadline set later never falls due
// earlier: a first-in, first-out list keeps them sorted, and adding,
// removing and finding the next are each O(1).
type deadlineQueue struct {
	head, tail *timed
}

// timed is what a deadlineQueue and a wakeHeap hold: a connection's
// deadline and its wake-up time, with their places in each.
type timed struct {
	id         int // the owner's index in its loop
	lane       int // 1 + the HTTP/2 lane whose stream it times; 0: the connection's
	deadline   time.Time
	prev, next *timed // in the deadline queue
	queued     bool
	wake       time.Time // when to wake the connection; zero: never
	index      int       // in the wake heap, -1 when absent
}

// push adds t with deadline d, which must not precede the last one added.
func (q *deadlineQueue) push(t *timed, d time.Time) {
	if t.queued {
		q.remove(t)
	}
	t.deadline, t.prev, t.next, t.queued = d, q.tail, nil, true
	if q.tail != nil {
		q.tail.next = t
	} else {
		q.head = t
	}
	q.tail = t
}

// remove takes t out of the queue, if it is in it.
func (q *deadlineQueue) remove(t *timed) {
	if !t.queued {
		return
	}
	if t.prev != nil {
		t.prev.next = t.next
	} else {
		q.head = t.next
	}
	if t.next != nil {
		t.next.prev = t.prev
	} else {
		q.tail = t.prev
	}
	t.prev, t.next, t.queued = nil, nil, false
}

// expired removes and returns the first entry whose deadline is not after
// now, or nil.
func (q *deadlineQueue) expired(now time.Time) *timed {
	t := q.head
	if t == nil || t.deadline.After(now) {
		return nil
	}
	q.remove(t)
	return t
}

// wakeHeap orders connections by their wake-up time: the end of a
// backoff, a script's delay.
type wakeHeap []*timed

func (h wakeHeap) Len() int           { return len(h) }
func (h wakeHeap) Less(i, j int) bool { return h[i].wake.Before(h[j].wake) }
func (h wakeHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *wakeHeap) Push(x any) {
	t := x.(*timed)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *wakeHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// set makes t wake at w, replacing any earlier wake-up.
func (h *wakeHeap) set(t *timed, w time.Time) {
	t.wake = w
	if t.index >= 0 {
		heap.Fix(h, t.index)
	} else {
		heap.Push(h, t)
	}
}

// remove takes t out of the heap, if it is in it.
func (h *wakeHeap) remove(t *timed) {
	if t.index >= 0 {
		heap.Remove(h, t.index)
		t.wake = time.Time{}
	}
}

// due removes and returns the first entry due by now, or nil.
func (h *wakeHeap) due(now time.Time) *timed {
	if len(*h) == 0 || (*h)[0].wake.After(now) {
		return nil
	}
	t := heap.Pop(h).(*timed)
	t.wake = time.Time{}
	return t
}

// next returns the earliest wake-up, or the zero time.
func (h wakeHeap) next() time.Time {
	if len(h) == 0 {
		return time.Time{}
	}
	return h[0].wake
}
