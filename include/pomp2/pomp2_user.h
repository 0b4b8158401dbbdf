/* pomp2_user.h - user regions and snapshots that cost nothing outside ompp.
 *
 *   #include <pomp2/pomp2_user.h>
 *   POMP_USER_REGION_BEGIN("solve");
 *   ...
 *   POMP_USER_REGION_END("solve");
 *   POMP_USER_SNAPSHOT("after setup");
 *
 * ompp-instrument defines OMPP_INSTRUMENTED for the files it rewrites; in any
 * other build the macros expand to nothing, so the code compiles without ompp
 * installed (this header has no other dependency).
 */
#ifndef POMP2_USER_H
#define POMP2_USER_H

#if defined(OMPP_INSTRUMENTED)
#include <pomp2/pomp2_ompp.h>
#define POMP_USER_REGION_BEGIN(name)                                                             \
    do {                                                                                         \
        static POMP2_Region_handle ompp_user_region_handle_;                                     \
        POMP2_USER_Begin_named(&ompp_user_region_handle_, (name), __FILE__, __LINE__);           \
    } while (0)
#define POMP_USER_REGION_END(name) POMP2_USER_End_named((name), __FILE__, __LINE__)
#define POMP_USER_SNAPSHOT(label) POMP2_USER_Snapshot(label)
#else
#define POMP_USER_REGION_BEGIN(name) ((void)0)
#define POMP_USER_REGION_END(name) ((void)0)
#define POMP_USER_SNAPSHOT(label) ((void)0)
#endif

#endif /* POMP2_USER_H */
