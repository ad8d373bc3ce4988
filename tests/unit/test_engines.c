/* test_engines.c - every registry row is complete: engines and workloads have all their callbacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "workload.h"

/* A missing callback is a NULL call at run time, in a test that may not
 * cover that engine: fail here with the row and the field named. */
#define NEED(what, row, ptr) do { \
	if (!(ptr)) \
		fail_msg("%s '%s': %s is NULL", what, row, #ptr); \
} while (0)

static int empty(const char *s)
{
	return !s || !*s;
}

static void test_engine_rows(void **state)
{
	const struct engine_entry *tab, *e;
	const struct engine_ops *o;
	size_t i, j, n, built = 0;

	tab = engine_table(&n);
	assert_non_null(tab);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		e = &tab[i];
		if (empty(e->name))
			fail_msg("engine row %zu has no name", i);
		for (j = 0; j < i; j++)
			if (!strcmp(tab[j].name, e->name))
				fail_msg("engine '%s': two rows", e->name);
		o = e->ops;
		if (!o) {
			/* list engines prints it: say why, not nothing */
			if (empty(e->missing))
				fail_msg("engine '%s': not built and no reason why", e->name);
			assert_null(engine_find(e->name));
			continue;
		}
		built++;
		NEED("engine", e->name, o->name);
		NEED("engine", e->name, o->desc);
		NEED("engine", e->name, o->probe);
		NEED("engine", e->name, o->init);
		NEED("engine", e->name, o->submit);
		NEED("engine", e->name, o->reap);
		NEED("engine", e->name, o->cleanup);
		if (strcmp(o->name, e->name))
			fail_msg("engine row '%s' holds the ops of '%s'", e->name, o->name);
		if (!*o->desc)
			fail_msg("engine '%s': empty desc", e->name);
		assert_ptr_equal(engine_find(e->name), o);
	}
	/* sync, direct and null need nothing from configure */
	assert_true(built >= 3);
#ifdef HAVE_LIBURING
	assert_ptr_equal(engine_find("io_uring"), &engine_io_uring);
#endif
#ifdef HAVE_LIBAIO
	assert_ptr_equal(engine_find("libaio"), &engine_libaio);
#endif
}

static void test_workload_rows(void **state)
{
	const struct workload *tab, *w;
	const struct wl_ops *o;
	size_t i, n, nops = 0;

	tab = wl_table(&n);
	assert_non_null(tab);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		w = &tab[i];
		if (empty(w->name))
			fail_msg("workload row %zu has no name", i);
		if (empty(w->desc))
			fail_msg("workload '%s': no desc", w->name);
		/* the first row of a name wins: a second one could never run */
		if (wl_find(w->name) != w)
			fail_msg("workload '%s': two rows", w->name);
		if (w->kind != WL_OPS)
			continue;
		nops++;
		o = w->ops;
		NEED("workload", w->name, o);
		NEED("workload", w->name, o->init);
		NEED("workload", w->name, o->op);
		NEED("workload", w->name, o->cleanup);
		NEED("workload", w->name, o->describe);
		NEED("workload", w->name, o->footprint);
	}
	assert_true(nops > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_rows),
		cmocka_unit_test(test_workload_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
