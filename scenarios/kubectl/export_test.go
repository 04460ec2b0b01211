package kubectl

// WithSource is withSource, for the external tests.
var WithSource = withSource
