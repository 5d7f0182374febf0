"""Imported, before numpy loads, by the benchmarks that time bots in CPU time or play many
small matrix products: numpy's linear algebra on one thread
(:func:`high_society.cli._options.one_numpy_thread`, as the command line sets it).

With a second BLAS thread, the work done there goes uncounted by a thread's clock while the
first thread's spin-waiting for it, long under load, counts: CPU per decision would follow
the machine's load rather than the bot.
"""

from high_society.cli._options import one_numpy_thread

one_numpy_thread()
