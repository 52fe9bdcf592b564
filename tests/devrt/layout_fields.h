/* layout_fields.h: what the host and nvcc must agree on about devrt_state.h (sizes and
 * field offsets), as one X-macro list for layout_probe.cuh and test_devrt.c:
 * SC_DEVRT_LAYOUT(SIZE, FIELD) expands SIZE(type) and FIELD(type, field). */
#ifndef SC_DEVRT_LAYOUT_FIELDS_H
#define SC_DEVRT_LAYOUT_FIELDS_H

#define SC_DEVRT_LAYOUT(SIZE, FIELD)                                                           \
    SIZE(ScDevRecord)                                                                          \
    FIELD(ScDevRecord, key)                                                                    \
    FIELD(ScDevRecord, addr)                                                                   \
    FIELD(ScDevRecord, occurrences)                                                            \
    FIELD(ScDevRecord, cause)                                                                  \
    FIELD(ScDevRecord, cur_site)                                                               \
    FIELD(ScDevRecord, prev_site)                                                              \
    FIELD(ScDevRecord, cur_info)                                                               \
    FIELD(ScDevRecord, prev_info)                                                              \
    FIELD(ScDevRecord, cur_block)                                                              \
    FIELD(ScDevRecord, cur_thread)                                                             \
    FIELD(ScDevRecord, prev_block)                                                             \
    FIELD(ScDevRecord, prev_thread)                                                            \
    SIZE(ScDevThread)                                                                          \
    FIELD(ScDevThread, bar_epoch)                                                              \
    FIELD(ScDevThread, warp_epoch)                                                             \
    FIELD(ScDevThread, rmw_word)                                                               \
    FIELD(ScDevThread, rmw_clock)                                                              \
    FIELD(ScDevThread, rmw_cause)                                                              \
    FIELD(ScDevThread, rmw_prev)                                                               \
    FIELD(ScDevThread, release)                                                                \
    FIELD(ScDevThread, release_fresh)                                                          \
    FIELD(ScDevThread, attempt)                                                                \
    FIELD(ScDevThread, pending)                                                                \
    FIELD(ScDevThread, pending_info)                                                           \
    FIELD(ScDevThread, lock_user)                                                              \
    FIELD(ScDevThread, last_acq)                                                               \
    FIELD(ScDevThread, release_also)                                                           \
    FIELD(ScDevThread, release_broken)                                                         \
    FIELD(ScDevThread, spin_key)                                                               \
    FIELD(ScDevThread, spin_shadow)                                                            \
    FIELD(ScDevThread, acq_flags)                                                              \
    FIELD(ScDevThread, last_acq_meta)                                                          \
    FIELD(ScDevThread, trail_classes)                                                          \
    FIELD(ScDevThread, grid_waited)                                                            \
    FIELD(ScDevThread, trail_named)                                                            \
    FIELD(ScDevThread, rel_nodes)                                                              \
    FIELD(ScDevThread, rel_next)                                                               \
    FIELD(ScDevThread, mbar_used)                                                              \
    SIZE(ScDevAsync)                                                                           \
    FIELD(ScDevAsync, copies)                                                                  \
    FIELD(ScDevAsync, clocks)                                                                  \
    FIELD(ScDevAsync, issued)                                                                  \
    FIELD(ScDevAsync, n)                                                                       \
    FIELD(ScDevAsync, groups)                                                                  \
    SIZE(ScDevBlock)                                                                           \
    FIELD(ScDevBlock, live_threads)                                                            \
    FIELD(ScDevBlock, slot_bit)                                                                \
    FIELD(ScDevBlock, sm)                                                                      \
    FIELD(ScDevBlock, divergent)                                                               \
    FIELD(ScDevBlock, bar_site)                                                                \
    FIELD(ScDevBlock, bar_first)                                                               \
    FIELD(ScDevBlock, exited_lanes)                                                            \
    FIELD(ScDevBlock, bar_arrived)                                                             \
    FIELD(ScDevBlock, bar_state)                                                               \
    FIELD(ScDevBlock, clk_busy)                                                                \
    FIELD(ScDevBlock, bar_count)                                                               \
    FIELD(ScDevBlock, named_count)                                                             \
    FIELD(ScDevBlock, named_warps)                                                             \
    FIELD(ScDevBlock, clk)                                                                     \
    FIELD(ScDevBlock, acq_head)                                                                \
    FIELD(ScDevBlock, acq_meta)                                                                \
    FIELD(ScDevBlock, acq_next)                                                                \
    FIELD(ScDevBlock, split_used)                                                              \
    FIELD(ScDevBlock, mbar_key)                                                                \
    FIELD(ScDevBlock, mbar_expected)                                                           \
    FIELD(ScDevBlock, mbar_arrivals)                                                           \
    FIELD(ScDevBlock, mbar_warps)                                                              \
    FIELD(ScDevBlock, cluster)                                                                 \
    SIZE(ScRulesBlockClk)                                                                      \
    SIZE(ScRulesWarpClk)                                                                       \
    SIZE(ScDevLaunch)                                                                          \
    FIELD(ScDevLaunch, launch_tag)                                                             \
    FIELD(ScDevLaunch, enabled)                                                                \
    FIELD(ScDevLaunch, slots_per_sm)                                                           \
    FIELD(ScDevLaunch, threads_per_block)                                                      \
    FIELD(ScDevLaunch, shared_words)                                                           \
    FIELD(ScDevLaunch, records_cap)                                                            \
    FIELD(ScDevLaunch, records_used)                                                           \
    FIELD(ScDevLaunch, sm_ids)                                                                 \
    FIELD(ScDevLaunch, slot_bitmap)                                                            \
    FIELD(ScDevLaunch, threads)                                                                \
    FIELD(ScDevLaunch, blocks)                                                                 \
    FIELD(ScDevLaunch, shared_shadow)                                                          \
    FIELD(ScDevLaunch, shadow_dir)                                                             \
    FIELD(ScDevLaunch, records)                                                                \
    FIELD(ScDevLaunch, unchecked_accesses)                                                     \
    FIELD(ScDevLaunch, unchecked_blocks)                                                       \
    FIELD(ScDevLaunch, split_cap)                                                              \
    FIELD(ScDevLaunch, warp_clocks)                                                            \
    FIELD(ScDevLaunch, split_pool)                                                             \
    FIELD(ScDevLaunch, split_used)                                                             \
    FIELD(ScDevLaunch, cache_epoch)                                                            \
    FIELD(ScDevLaunch, cache)                                                                  \
    FIELD(ScDevLaunch, cache_bits)                                                             \
    FIELD(ScDevLaunch, sync_lost)                                                              \
    FIELD(ScDevLaunch, sync_table)                                                             \
    FIELD(ScDevLaunch, sync_nodes)                                                             \
    FIELD(ScDevLaunch, sync_used)                                                              \
    FIELD(ScDevLaunch, trails_lost)                                                            \
    FIELD(ScDevLaunch, unsplit_accesses)                                                       \
    FIELD(ScDevLaunch, trails)                                                                 \
    FIELD(ScDevLaunch, async_unfollowed)                                                       \
    FIELD(ScDevLaunch, const_rows)                                                             \
    FIELD(ScDevLaunch, async)                                                                  \
    FIELD(ScDevLaunch, released)                                                               \
    FIELD(ScDevLaunch, slot_split_cap)                                                         \
    FIELD(ScDevLaunch, prior_dir)                                                              \
    FIELD(ScDevLaunch, prior_unordered)                                                        \
    FIELD(ScDevLaunch, prior_split)                                                            \
    FIELD(ScDevLaunch, tensor_maps)                                                            \
    FIELD(ScDevLaunch, n_tensor_maps)                                                          \
    FIELD(ScDevLaunch, slot_split)                                                             \
    FIELD(ScDevLaunch, prof)                                                                   \
    SIZE(ScDevTensorMap)                                                                       \
    FIELD(ScDevTensorMap, map)                                                                 \
    FIELD(ScDevTensorMap, base)                                                                \
    FIELD(ScDevTensorMap, dim)                                                                 \
    FIELD(ScDevTensorMap, stride)                                                              \
    FIELD(ScDevTensorMap, box)                                                                 \
    FIELD(ScDevTensorMap, rank)                                                                \
    FIELD(ScDevTensorMap, elem)                                                                \
    FIELD(ScDevTensorMap, checked)                                                             \
    SIZE(ScDevSyncNode)                                                                        \
    FIELD(ScDevSyncNode, rec)                                                                  \
    FIELD(ScDevSyncNode, prev)                                                                 \
    FIELD(ScDevSyncNode, self)                                                                 \
    FIELD(ScDevSyncNode, also)                                                                 \
    FIELD(ScDevSyncNode, broken)                                                               \
    FIELD(ScDevSyncNode, start)                                                                \
    FIELD(ScDevSyncNode, depth)                                                                \
    SIZE(ScDevCacheEntry)                                                                      \
    FIELD(ScDevCacheEntry, tag)                                                                \
    FIELD(ScDevCacheEntry, shadow)                                                             \
    FIELD(ScDevCacheEntry, site)

#endif
