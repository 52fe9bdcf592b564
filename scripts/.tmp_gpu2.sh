set -u
nvidia-smi -L
make -j32 all >/dev/null 2>&1 || echo BUILD FAIL
P="global_devices_race global_devices_norace global_devices_threads_race global_devices_threads_norace global_device_reset_race global_device_reset_norace global_streams_unordered_race global_streams_unordered_norace global_streams_copy_out_race global_streams_copy_out_norace global_pdl_chain_norace global_graph_missing_edge_race global_graph_missing_edge_norace shared_missing_syncthreads_race shared_missing_syncthreads_norace global_lost_update_race global_lost_update_norace global_large_byte_array_race shared_lazy_loading_race"
make -j32 $(for p in $P; do printf 'build/races/%s ' $p; done) > $OUT/mk.log 2>&1 || echo RACE BUILD FAIL
python3 scripts/race_suite.py --timeout 90 --jobs 8 --out /tmp/g $P > $OUT/races.txt 2>&1; tail -4 $OUT/races.txt; grep -v "pass$" /tmp/g/race_suite.tsv
for p in global_devices_race global_devices_threads_race global_device_reset_race; do timeout 60 build/bin/scord --verbose build/races/$p > $OUT/$p.v.log 2>&1; echo "== $p rc=$?"; grep -E "device state|context|SUMMARY|races" $OUT/$p.v.log | head; done
BUDGET=200 bash scripts/gpu_passthrough.sh /tmp/pt > $OUT/pt.txt 2>&1; tail -23 $OUT/pt.txt
tar czf $OUT/logs.tgz /tmp/g /tmp/pt 2>/dev/null
