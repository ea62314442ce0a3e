# CPack: one package per platform, everything taken from the project (name,
# version, summary, license, icon).
#   Linux:   DEB, dependencies from dpkg-shlibdeps plus the Qt plugins and
#            QML modules the app loads at run time (no ELF dependency names
#            them); scripts/package builds it and runs lintian.
#   macOS:   DragNDrop (.dmg) of Hearth.app, made self-contained by
#            macdeployqt at install time.
#   Windows: NSIS installer of bin/, made self-contained by windeployqt at
#            install time, with a Start-menu shortcut.
set(CPACK_PACKAGE_NAME hearth)
set(CPACK_PACKAGE_VENDOR "The Hearth developers")
set(CPACK_PACKAGE_CONTACT "Hearth developers <hearth-app@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Chat with language models that run on your own computer")
set(CPACK_PACKAGE_DESCRIPTION "Hearth is a desktop chat application for local large language models in GGUF
files, with its own inference engine. Drop a model on its window and chat:
replies stream with Markdown and highlighted code, conversations are saved
and searchable, and nothing leaves the computer.

The package also has the hearth command-line tool: model summaries, chat
templates, tokenizing, generation, perplexity and benchmarks.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/hearth-app/hearth")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_INSTALL_DIRECTORY Hearth)
set(CPACK_PACKAGE_EXECUTABLES Hearth Hearth)
set(CPACK_STRIP_FILES ON)

# Debian
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # hearth_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "qml6-module-qtquick, qml6-module-qtquick-controls, qml6-module-qtquick-templates, \
qml6-module-qtquick-layouts, qml6-module-qtquick-window, qml6-module-qtquick-dialogs, \
qml6-module-qtqml, qml6-module-qtqml-models, qml6-module-qtqml-workerscript, \
qml6-module-qt-labs-folderlistmodel, qml6-module-qtquick-pdf, \
qt6-qpa-plugins, libqt6sql6-sqlite, libqt6svg6")
# API keys go to the desktop's secret service; without one Hearth says so.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring | kwalletmanager")

# macOS: the bundle at the top of the disk image, next to a link to
# /Applications. The CLI sits in Contents/Helpers: on a case-insensitive
# file system Contents/MacOS could not hold both `hearth` and `Hearth`.
set(CPACK_DMG_VOLUME_NAME "Hearth ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT UDZO)

# Windows
set(CPACK_NSIS_DISPLAY_NAME "Hearth ${PROJECT_VERSION}")
set(CPACK_NSIS_PACKAGE_NAME Hearth)
set(CPACK_NSIS_URL_INFO_ABOUT ${CPACK_PACKAGE_HOMEPAGE_URL})
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_INSTALLED_ICON_NAME bin\\\\Hearth.exe)
set(CPACK_NSIS_MUI_ICON ${CMAKE_BINARY_DIR}/app/desktop/Hearth-resources/hearth.ico)
set(CPACK_NSIS_MUI_UNIICON ${CMAKE_BINARY_DIR}/app/desktop/Hearth-resources/hearth.ico)

if(APPLE)
    set(CPACK_GENERATOR DragNDrop)
elseif(WIN32)
    set(CPACK_GENERATOR NSIS)
else()
    set(CPACK_GENERATOR DEB)
endif()

# The Qt deployment tools copy Qt's libraries, plugins and QML modules next
# to the executables, so the bundle runs where no Qt is installed. They run
# at install time on the staged tree (CPack installs into a staging prefix).
if(APPLE OR WIN32)
    get_target_property(_qmake Qt6::qmake IMPORTED_LOCATION)
    get_filename_component(_qt_bin ${_qmake} DIRECTORY)
    find_program(HEARTH_MACDEPLOYQT macdeployqt HINTS ${_qt_bin})
    find_program(HEARTH_WINDEPLOYQT windeployqt HINTS ${_qt_bin})
    set(_qml_dir ${PROJECT_SOURCE_DIR}/qml)
    if(APPLE)
        install(CODE "
            execute_process(COMMAND \"${HEARTH_MACDEPLOYQT}\" \"\${CMAKE_INSTALL_PREFIX}/Hearth.app\"
                -qmldir=${_qml_dir} -executable=\${CMAKE_INSTALL_PREFIX}/Hearth.app/Contents/Helpers/hearth
                -always-overwrite COMMAND_ERROR_IS_FATAL ANY)")
    else()
        install(CODE "
            execute_process(COMMAND \"${HEARTH_WINDEPLOYQT}\" --qmldir ${_qml_dir}
                \"\${CMAKE_INSTALL_PREFIX}/bin/Hearth.exe\" \"\${CMAKE_INSTALL_PREFIX}/bin/hearth-cli.exe\"
                COMMAND_ERROR_IS_FATAL ANY)")
        # The MSVC runtime DLLs, next to the executables.
        set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION bin)
        include(InstallRequiredSystemLibraries)
    endif()
endif()

include(CPack)
