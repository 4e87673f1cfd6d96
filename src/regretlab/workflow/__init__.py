"""The top layer, what Snakemake and the ``regretlab`` command use: the config and its checks, the DAG's
job split (:mod:`.jobs`), the jobs' resource requests and ``regretlab estimate`` (:mod:`.cost`), the
calibration of the unit costs, each job's code files (:mod:`.imports`, :mod:`.registry_sources`), the
listings and the command line (:mod:`.cli`)."""
