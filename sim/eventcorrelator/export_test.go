package eventcorrelator

// NewKeepingStale returns a correlator that keeps stale groups, as
// client-go's does.
func NewKeepingStale() *Correlator {
	c := New()
	c.keepStale = true
	return c
}

// Sizes returns the caches' sizes.
func (c *Correlator) Sizes() (aggregates, logs, spam int) {
	return c.aggregates.len(), c.logs.len(), c.spam.len()
}
