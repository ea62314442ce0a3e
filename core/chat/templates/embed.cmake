# Embeds the built-in chat templates into C++: writes OUT, a list of
#   {"NAME", R"hearth_tpl(SOURCE)hearth_tpl"},
# entries for each NAME in NAMES, from DIR/NAME.jinja.
# Included by core/chat/CMakeLists.txt with OUT, DIR and NAMES set.
set(content "")
foreach(name IN LISTS NAMES)
    file(READ "${DIR}/${name}.jinja" text)
    string(FIND "${text}" ")hearth_tpl\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "${name}.jinja contains the raw-string delimiter")
    endif()
    string(APPEND content "{\"${name}\", R\"hearth_tpl(${text})hearth_tpl\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
