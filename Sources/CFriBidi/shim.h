#pragma once
#include <fribidi.h>

/// FRIBIDI_PAR_ON (direction from the first strong character), which Swift cannot import
/// through its nested macros.
static const FriBidiParType damask_fribidi_par_auto = FRIBIDI_PAR_ON;
/// FRIBIDI_PAR_LTR and FRIBIDI_PAR_RTL.
static const FriBidiParType damask_fribidi_par_ltr = FRIBIDI_PAR_LTR;
static const FriBidiParType damask_fribidi_par_rtl = FRIBIDI_PAR_RTL;
