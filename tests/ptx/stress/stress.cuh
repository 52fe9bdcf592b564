/* stress.cuh: target guards shared by the PTX stress set. Every stress file
 * compiles for sm_75, sm_80, sm_90 and sm_90a; code that needs a newer target
 * sits under one of these so each target gets every instruction it allows. */
#ifndef SCORD_STRESS_CUH
#define SCORD_STRESS_CUH

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define STRESS_SM80 1
#else
#define STRESS_SM80 0
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define STRESS_SM90 1
#else
#define STRESS_SM90 0
#endif

/* Arch-specific (sm_90a) features: setmaxnreg, wgmma. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define STRESS_SM90A 1
#else
#define STRESS_SM90A 0
#endif

/* Keeps a value alive without adding memory traffic of its own. */
#define STRESS_USE(x) asm volatile("" ::"r"((unsigned)(x)))

#endif
