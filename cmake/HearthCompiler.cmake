# Compiler setup shared by every Hearth target: ccache, warnings, sanitizers.

find_program(HEARTH_CCACHE ccache)
if(HEARTH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_C_COMPILER_LAUNCHER ${HEARTH_CCACHE})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${HEARTH_CCACHE})
endif()

# hearth_warnings: an interface target every Hearth target links, so the
# warning set is stated once.
add_library(hearth_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(hearth_warnings INTERFACE
        -Wall -Wextra -Wpedantic -Wnon-virtual-dtor
        -Wcast-align -Wimplicit-fallthrough -Wno-missing-field-initializers)
    if(HEARTH_WERROR)
        target_compile_options(hearth_warnings INTERFACE -Werror)
    endif()
elseif(MSVC)
    target_compile_options(hearth_warnings INTERFACE /W4 /permissive- /utf-8)
    if(HEARTH_WERROR)
        target_compile_options(hearth_warnings INTERFACE /WX)
    endif()
endif()

if(HEARTH_ASAN)
    if(MSVC)
        add_compile_options(/fsanitize=address)
    else()
        add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                            -fno-sanitize-recover=undefined)
        if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
            # GCC's flow warnings misfire on instrumented code.
            add_compile_options(-Wno-maybe-uninitialized -Wno-stringop-overflow)
        endif()
        add_link_options(-fsanitize=address,undefined)
    endif()
endif()

if(HEARTH_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "HEARTH_FUZZ needs clang (libFuzzer): use the fuzz preset")
    endif()
    # Coverage for libFuzzer everywhere; the fuzz targets link its main.
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()
