# hearth_platform_resources(TARGET DESCRIPTION): the icon and version of a
# Hearth executable where the platform keeps them in the binary or bundle.
#   Windows: a resource script with the icon (render_icons --ico) and the
#            VERSIONINFO that Explorer's Properties and the installer show.
#   macOS:   Hearth.icns (render_icons --iconset + iconutil) in Resources,
#            named by the bundle's Info.plist.
# Elsewhere nothing: Linux icons are files of the icon theme (linux/).
set(_hearth_packaging_dir ${CMAKE_CURRENT_LIST_DIR})

function(hearth_platform_resources target description)
    set(svg ${PROJECT_SOURCE_DIR}/resources/icons/hearth.svg)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}-resources)
    if(WIN32)
        add_custom_command(OUTPUT ${out}/hearth.ico
            COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                    $<TARGET_FILE:render_icons> --ico ${svg} ${out}/hearth.ico 16 24 32 48 64 128 256
            DEPENDS render_icons ${svg} COMMENT "Rendering hearth.ico")
        set(HEARTH_RC_DESCRIPTION "${description}")
        set(HEARTH_RC_FILENAME "$<TARGET_FILE_NAME:${target}>")
        set(HEARTH_RC_ICON "${out}/hearth.ico")
        configure_file(${_hearth_packaging_dir}/windows/hearth.rc.in ${out}/hearth.rc.in @ONLY)
        file(GENERATE OUTPUT ${out}/hearth.rc INPUT ${out}/hearth.rc.in)
        target_sources(${target} PRIVATE ${out}/hearth.rc ${out}/hearth.ico)
        set_source_files_properties(${out}/hearth.rc PROPERTIES OBJECT_DEPENDS ${out}/hearth.ico)
    elseif(APPLE)
        add_custom_command(OUTPUT ${out}/Hearth.icns
            COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                    $<TARGET_FILE:render_icons> --iconset ${svg} ${out}/Hearth.iconset
            COMMAND iconutil -c icns -o ${out}/Hearth.icns ${out}/Hearth.iconset
            DEPENDS render_icons ${svg} COMMENT "Rendering Hearth.icns")
        target_sources(${target} PRIVATE ${out}/Hearth.icns)
        set_source_files_properties(${out}/Hearth.icns PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
        set_target_properties(${target} PROPERTIES MACOSX_BUNDLE_ICON_FILE Hearth.icns)
    endif()
endfunction()
