# SIMD kernel sources of the CPU backend, one folder per ISA. Each source is
# compiled with its own ISA's flags only (per-source COMPILE_OPTIONS), so the
# rest of the binary stays baseline and one x86-64 build runs everywhere;
# backends/cpu/kernels.cpp registers a level after run-time detection.
#
# Kernels must sum exactly as the scalar reference does: no contraction of
# a·b + c into fused multiply-adds the source did not ask for.

set(_hearth_simd_dir ${CMAKE_CURRENT_LIST_DIR}/../backends/cpu)

function(_hearth_simd_sources target folder options)
    set(files ${ARGN})
    list(TRANSFORM files PREPEND ${_hearth_simd_dir}/${folder}/)
    target_sources(${target} PRIVATE ${files})
    set_source_files_properties(${files} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${options}")
endfunction()

# hearth_add_simd_kernels(TARGET): adds every kernel file. Those of the
# processor being built for get their ISA's flags; the others compile to
# empty registration functions (each file is guarded by its architecture),
# so kernels.cpp can call every level's registration on every platform.
function(hearth_add_simd_kernels target)
    set(proc ${CMAKE_SYSTEM_PROCESSOR})
    if(MSVC)
        set(common "")
    else()
        set(common -O3 -ffp-contract=off)
    endif()
    set(avx2 ${common})
    set(avx512 ${common})
    set(vnni ${common})
    set(neon ${common})
    set(dotprod ${common})
    if(proc MATCHES "^(x86_64|AMD64|amd64|x64)$")
        if(MSVC)
            set(avx2 /arch:AVX2)
            set(avx512 /arch:AVX512)
            set(vnni /arch:AVX512)
        else()
            set(avx2 ${common} -mavx2 -mfma -mf16c)
            set(avx512 ${avx2} -mavx512f -mavx512bw -mavx512vl -mavx512dq)
            if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
                # GCC 12 warns inside its own avx512fintrin.h (_mm512_undefined_*).
                list(APPEND avx512 -Wno-uninitialized -Wno-maybe-uninitialized)
            endif()
            set(vnni ${avx512} -mavx512vnni)
        endif()
    elseif(proc MATCHES "^(aarch64|arm64|ARM64)$" AND NOT MSVC)
        set(dotprod ${common} -march=armv8.2-a+dotprod)
    endif()
    _hearth_simd_sources(${target} avx2 "${avx2}" float.cpp legacy.cpp k_quants.cpp attention.cpp repacked.cpp
        repacked_k.cpp)
    _hearth_simd_sources(${target} avx512 "${avx512}" float.cpp legacy.cpp k_quants.cpp attention.cpp)
    _hearth_simd_sources(${target} avx512 "${vnni}" legacy_vnni.cpp legacy_tokens_vnni.cpp k_quants_vnni.cpp repacked_vnni.cpp
        repacked_gemv_vnni.cpp)
    _hearth_simd_sources(${target} neon "${neon}" float.cpp legacy.cpp k_quants.cpp attention.cpp repacked.cpp
        repacked_k.cpp)
    _hearth_simd_sources(${target} neon "${dotprod}" legacy_dotprod.cpp k_quants_dotprod.cpp repacked_dotprod.cpp
        repacked_k_dotprod.cpp)
endfunction()
