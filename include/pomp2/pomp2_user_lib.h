/* pomp2_user_lib.h - POMP2 user-region and measurement-control API, as
 * OPARI2 2.0.7 declares it.  `#pragma pomp inst ...` is rewritten into these
 * calls; <pomp2/pomp2_user.h> offers macros for code that is built both with
 * and without ompp. */
#ifndef POMP2_USER_LIB_H
#define POMP2_USER_LIB_H

/* No #include, as in <pomp2/pomp2_lib.h>. */

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __opari2_region_handle
#define __opari2_region_handle
typedef void* OPARI2_Region_handle;
#endif
typedef OPARI2_Region_handle POMP2_USER_Region_handle;

void POMP2_Init(void);
void POMP2_Finalize(void);
void POMP2_On(void);
void POMP2_Off(void);

void POMP2_Begin(POMP2_USER_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_End(POMP2_USER_Region_handle* pomp2_handle);

void POMP2_USER_Assign_handle(POMP2_USER_Region_handle* pomp2_handle, const char ctc_string[]);
void POMP2_USER_Init_regions(void);
__SIZE_TYPE__ POMP2_USER_Get_num_regions(void);

#ifdef __cplusplus
}
#endif

#endif /* POMP2_USER_LIB_H */
