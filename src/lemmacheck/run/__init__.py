"""The run: one claim's verdict in a worker process under a time limit, the catalogue across cores or a
cluster, the cache."""
