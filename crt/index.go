package crt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// Field indexes of the cached client, as controller-runtime's informer
// cache keeps them (sigs.k8s.io/controller-runtime/pkg/cache/
// informer_cache.go indexByField, internal/cache_reader.go): an index
// named "field:<field>" files each object under "<namespace>/<value>"
// and, for a namespaced object, "__all_namespaces/<value>" too, for each
// value the user's extractor returns from the object in the user's type.

// allNamespaces is controller-runtime's key prefix of the values of a
// field index that ignore the namespace.
const allNamespaces = "__all_namespaces"

// fieldIndexName is controller-runtime's internal.FieldIndexName.
func fieldIndexName(field string) string { return "field:" + field }

// namespacedKey is controller-runtime's internal.KeyToNamespacedKey.
func namespacedKey(ns, v string) string {
	if ns != "" {
		return ns + "/" + v
	}
	return allNamespaces + "/" + v
}

// fieldIndexer is the Manager's client.FieldIndexer.
type fieldIndexer struct{ c *Client }

// GetFieldIndexer returns the indexer of the manager's cache: IndexField
// adds a field index to the cache of a kind, for client.MatchingFields
// in List.
func (m *Manager) GetFieldIndexer() client.FieldIndexer { return fieldIndexer{m.client} }

// IndexField files the cached objects of obj's kind under the values
// extract returns (called with each object in the user's type, converted
// once per version). A second index of the same field and kind is an
// error, as in controller-runtime (client-go's "indexer conflict").
func (f fieldIndexer) IndexField(_ context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	c := f.c
	gvk, err := c.conv.GVK(obj)
	if err != nil {
		return err
	}
	if err := c.served(gvk); err != nil {
		return err
	}
	kind := api.Kind{Group: gvk.Group, Name: gvk.Kind}
	name := fieldIndexName(field)
	if slices.Contains(c.indexes[kind], field) {
		return fmt.Errorf("indexer conflict: map[%s:{}]", name)
	}
	inf, err := c.m.Informer(kind, informer.Options{})
	if err != nil {
		return err
	}
	conv := c.conv
	inf.AddIndex(name, func(o api.Object, out []string) []string {
		typed, err := c.newLike(obj, gvk)
		if err == nil {
			err = conv.FromCache(o, typed)
		}
		if err != nil {
			panic(fmt.Sprintf("crt invariant cache-object-converts: %v", err))
		}
		ns := o.GetObjectMeta().Namespace
		vals := extract(typed)
		for _, v := range vals {
			out = append(out, namespacedKey(ns, v))
		}
		if ns != "" {
			for _, v := range vals {
				out = append(out, namespacedKey("", v))
			}
		}
		return out
	})
	if c.indexes == nil {
		c.indexes = map[api.Kind][]string{}
	}
	c.indexes[kind] = append(c.indexes[kind], field)
	return nil
}

// errNonExact is controller-runtime's cache reader's refusal of a field
// selector other than field=value requirements.
var errNonExact = errors.New("non-exact field matches are not supported by the cache")

// byFields returns the cached objects of kind in namespace ns (all when
// "") whose field indexes hold every requirement of sel, sorted by
// namespace and name.
func (c *Client) byFields(l informer.Lister, kind api.Kind, sel fields.Selector, ns string) ([]api.Object, error) {
	reqs := sel.Requirements()
	if len(reqs) == 0 {
		return nil, errNonExact
	}
	for _, r := range reqs {
		if r.Operator != selection.Equals && r.Operator != selection.DoubleEquals {
			return nil, errNonExact
		}
		if !slices.Contains(c.indexes[kind], r.Field) {
			return nil, fmt.Errorf("Index with name %s does not exist", fieldIndexName(r.Field))
		}
	}
	objs := l.ByIndex(fieldIndexName(reqs[0].Field), namespacedKey(ns, reqs[0].Value))
	for _, r := range reqs[1:] {
		in := l.ByIndex(fieldIndexName(r.Field), namespacedKey(ns, r.Value))
		objs = slices.DeleteFunc(objs, func(o api.Object) bool {
			m := o.GetObjectMeta()
			_, found := slices.BinarySearchFunc(in, m, compareMeta)
			return !found
		})
	}
	return objs, nil
}

// compareMeta orders a cached object against a namespace and name, as
// the cache orders its lists.
func compareMeta(o api.Object, m *api.ObjectMeta) int {
	om := o.GetObjectMeta()
	return cmp.Or(strings.Compare(om.Namespace, m.Namespace), strings.Compare(om.Name, m.Name))
}
