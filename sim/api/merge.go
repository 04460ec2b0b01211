package api

// MergePatch applies patch p to document d, both generic JSON trees
// (maps, lists, scalars as encoding/json decodes them), as RFC 7386 JSON
// merge patch does, and returns the result without changing either:
// objects merge, null deletes a key, anything else (a list included)
// replaces. Strategic merge patches are sim/strategicpatch's Apply.
func MergePatch(d, p any) any {
	pm, ok := p.(map[string]any)
	if !ok {
		return p
	}
	dm, _ := d.(map[string]any)
	out := make(map[string]any, len(dm)+len(pm))
	for k, v := range dm {
		out[k] = v
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = MergePatch(out[k], v)
	}
	return out
}
